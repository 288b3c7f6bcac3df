/* cachedrop.h: dropping the page cache, and saying honestly when a drop
 * cannot evict the data a run is about to read. */
#ifndef SB_OS_CACHEDROP_H
#define SB_OS_CACHEDROP_H
#include <stdbool.h>
#include <stddef.h>

/* sync, then write "1" to proc_path (/proc/sys/vm/drop_caches or a test's
 * stand-in).  True when that worked and the data under data_path (a file or
 * folder; NULL: not checked) can be evicted by it.  False with why set (a
 * sentence naming the cause) when the write failed (not root, the file is
 * absent) or data_path lives on tmpfs or ramfs, whose pages are the files
 * themselves and stay in memory whatever is dropped. */
bool sb_os_drop_caches(const char *proc_path, const char *data_path, char *why, size_t len);

/* "tmpfs" or "ramfs" when path is on a memory file system, else NULL. */
const char *sb_os_memfs(const char *path);
#endif
