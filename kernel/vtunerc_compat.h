/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vtunerc: the differences between the kernels this tree builds for
 * (6.1 and 6.12), in one place.  Kbuild probes the kernel headers and
 * defines the VTUNERC_HAVE_* macros this file turns into code.
 */
#ifndef _VTUNERC_COMPAT_H_
#define _VTUNERC_COMPAT_H_

/* 6.2 made the struct device argument of class devnode callbacks const. */
#ifdef VTUNERC_HAVE_CONST_DEVNODE
#define VTUNERC_DEVNODE_CONST const
#else
#define VTUNERC_DEVNODE_CONST
#endif

#endif /* _VTUNERC_COMPAT_H_ */
