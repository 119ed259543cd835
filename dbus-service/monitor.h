/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Watching the arrays: reads sysfs on every tick, follows each boost until
 * the operation it waits for ends (then restores it), drops the boosts of
 * arrays that went away, keeps one D-Bus object per array, and sends
 * PropertiesChanged / InterfacesAdded / InterfacesRemoved for what changed.
 */

#include <stdbool.h>
#include <stdint.h>

#include <dbus/dbus.h>

#include "context.h"

/* Start-up: restores what an unclean stop left behind, then marks the journal as in use. */
int monitor_startup(context *c);

/* One poll; returns the milliseconds until the next one. */
uint64_t monitor_tick(void *userdata);

/*
 * Reads everything again before a method call is answered when the last
 * read is older than poll_active_ms: with nothing running the service may
 * have slept for minutes, waiting for md.
 */
void monitor_freshen(context *c);

/* Syncs the objects with c->arrays and emits what changed (nothing when @emit is false). */
void monitor_publish(context *c, bool emit);

void monitor_free(context *c);

/* Appends {interface: {property: value}} of array @a, as GetManagedObjects and InterfacesAdded send it. */
bool monitor_append_object(const context *c, const md_array *a, DBusMessageIter *it);
