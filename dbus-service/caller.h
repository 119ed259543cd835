/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Who is behind a caller the bus names only by uid. Cockpit's page runs
 * Boost and Restore through a bridge that Cockpit starts as root (sudo or
 * pkexec) once its user switches to administrative access, so the bus says
 * uid 0 for every one of them. The kernel keeps the login's uid on every
 * process of a session (pam_loginuid, in Debian's PAM stacks for Cockpit,
 * sshd and login, writes /proc/self/loginuid once; sudo and pkexec keep it),
 * so /proc/PID/loginuid of the bridge names the user who logged in.
 */

#include <stddef.h>
#include <stdint.h>

#include "auth.h"

/* The text of /proc/PID/loginuid: 0 with the uid; -ENODATA for "no login" (4294967295); -EINVAL otherwise. */
int caller_parse_loginuid(const char *text, size_t len, uint32_t *ret);

/*
 * The caller as the audit line names it: "uid 0 pid 495 bus :1.4", and
 * " for login alice (uid 1000)" when the login is not the uid itself.
 */
void caller_describe(const caller *who, char *buf, size_t size);

/*
 * Fills @who's login from the real /proc (caller-io.c): the caller is a
 * process of this machine, whatever root the service reads md from. Leaves
 * has_login false when the process has no login or is gone.
 */
void caller_learn_login(caller *who);
