/* SPDX-License-Identifier: MIT */
#pragma once

/* Shared by the library's own files; not part of its interface. */

#include <stdbool.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "array.h"
#include "root.h"

/* The same for a directory already open for reading at @fd, from where its offset is. */
int md_dir_scan_fd(int fd, md_dir_cb cb, void *userdata);

/*
 * openat() of @rel below @dir_fd that cannot leave it (openat2
 * RESOLVE_BENEATH): relative symlinks that stay below @dir_fd are followed,
 * as sysfs's own are (sys/block/md0 -> ../devices/virtual/block/md0); an
 * absolute symlink, or one whose ".." climbs out, fails with -EXDEV, and so
 * do /proc's magic links. A test tree's link to /etc/passwd is never
 * written through. Returns the fd or -errno.
 */
int md_openat_beneath(int dir_fd, const char *rel, int flags);

/*
 * md_openat_beneath of a regular file only: the path is opened O_PATH and
 * checked first, so a FIFO, socket or device node is refused (-EINVAL,
 * -EISDIR for a folder) without ever being opened; then the file that was
 * checked is opened with @flags. Fills *ret_st when @ret_st is not NULL.
 */
int md_open_regular_beneath(int dir_fd, const char *rel, int flags, struct stat *ret_st);

/* Opens @rel under @r as a new root (O_PATH directory): paths below it stay short. */
int md_root_open_at(const md_root *r, const char *rel, md_root *ret);

/*
 * md_root_read for an entry a listing has just reported as a regular file,
 * without the fstat: see root.c for why that stays safe.
 */
ssize_t md_root_read_listed(const md_root *r, const char *rel, char *buf, size_t size);

/* Room for the names under md/ that the model reads (listing-io.c keeps the list). */
#define MD_LISTING_NAMES 32
/* type[] value of a name the listing did not find. */
#define MD_LISTING_ABSENT 0xff

/*
 * An array's md/ folder, opened and listed once per read of the array: the
 * listing says which attributes exist and what they are, so absent ones cost
 * no failed open and regular ones no fstat, and it finds the member folders.
 */
typedef struct md_kept md_kept;

typedef struct md_listing {
        int dir_fd;                           /* the array's folder, not owned */
        md_root md;                           /* md/ itself: relative names below it are one component */
        bool listed;                          /* the whole folder was listed: type[] and ino[] are exact */
        unsigned char type[MD_LISTING_NAMES]; /* d_type of each known name, or ABSENT */
        ino_t ino[MD_LISTING_NAMES];
        md_fd_cache *cache; /* files kept open between reads, or NULL */
        md_kept *kept;      /* this array's entry in it */
} md_listing;

/*
 * Opens and lists the md/ folder of the array whose folder is @dir, putting
 * the names of its dev-* member folders into @a (n_members, names only).
 * -ENOENT when there is no md/ folder; -ENOMEM / -E2BIG when the member
 * buffer cannot grow. A folder that cannot be listed sets the members' bad
 * bit and leaves every read to the plain reader.
 */
int md_listing_open(const md_root *dir, md_array *a, md_listing *ret);
/* The same, reading regular attributes through the kept files @k of @cache (both may be NULL). */
int md_listing_open_kept(const md_root *dir, md_array *a, md_fd_cache *cache, md_kept *k, md_listing *ret);
void md_listing_close(md_listing *l);

/* md_root_read of @rel below md/ ("level", "bitmap/location"), informed by the listing. */
ssize_t md_listing_read(const md_listing *l, const char *rel, char *buf, size_t size);

/* md_root_read of @rel below the array's folder ("size", "md/dev-vda/state"), kept if it may. */
ssize_t md_listing_read_path(const md_listing *l, const char *rel, char *buf, size_t size);

/* md_root_is_dir of @name below md/, informed by the listing. */
int md_listing_is_dir(const md_listing *l, const char *name);

/* True if @name is one the listing records (for tests: the list must stay sorted). */
bool md_listing_knows(const char *name);

/* The folder of each member device below md/: "dev-" and its kernel name. */
#define MD_MEMBER_PREFIX "dev-"

/* Reads the state, slot and recovery_start of every member md_listing_open found, then sorts them. */
void md_members_read(const md_listing *l, md_array *a, bool offsets);

/*
 * fdcache.c: attribute files of a set's arrays kept open between reads,
 * within a fixed budget of descriptors.
 */
void md_fd_cache_begin(md_fd_cache *c);
/* The entry of array @name, added if there is room; NULL means read it without keeping files. */
md_kept *md_fd_cache_get(md_fd_cache **pc, const char *name);
/* Closes what arrays not seen since md_fd_cache_begin kept. */
void md_fd_cache_end(md_fd_cache *c);
void md_fd_cache_free(md_fd_cache **pc);
/*
 * Starts a read of the array whose md/ folder is on filesystem @dev and was
 * just listed (@type, @ino: md_listing's): forgets what was kept on another
 * filesystem and attributes no longer listed as the same regular file.
 */
void md_kept_begin(md_fd_cache *c, md_kept *k, dev_t dev, const unsigned char *type, const ino_t *ino);
/* Ends it: files in sub-folders this read did not ask for (a member gone) are closed. */
void md_kept_end(md_fd_cache *c, md_kept *k);
/*
 * Reads the regular file @name, entry @i of the listing with inode
 * @listed_ino, below the md/ folder open at @md_fd: through the kept file
 * when it is that inode, else opened anew (and kept when the budget allows).
 */
ssize_t md_kept_read(md_fd_cache *c, md_kept *k, int md_fd, unsigned i, const char *name, ino_t listed_ino, char *buf,
                     size_t size);
/*
 * Reads @rel below the array's folder @dir_fd ("md/dev-vda/state",
 * "queue/read_ahead_kb") through the kept file when fstatat of @rel finds
 * its inode, else opened anew (and kept when the budget allows).
 */
ssize_t md_kept_read_path(md_fd_cache *c, md_kept *k, int dir_fd, const char *rel, char *buf, size_t size);
