/* pack.h: what dist/mpi.c uses that needs no MPI (so the unit tests see it
 * in every build): records packed by zero runs for the record reduction,
 * and how a waiting rank sleeps (dist/pack.c). */
#ifndef SB_DIST_PACK_H
#define SB_DIST_PACK_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A record of len bytes packed: runs of (one word: zero words << 32 |
 * literal words, then the literal words), the len % 8 tail bytes after
 * them as they are.  bound: the most bytes pack may write (3 words per 2
 * of input, plus 2); pack returns how many it wrote; unpack rebuilds the
 * len bytes at dst, -EPROTO when plen bytes at in are not such a record. */
size_t sb_dist_pack_bound(size_t len);
size_t sb_dist_pack(const void *src, size_t len, uint64_t *out);
int sb_dist_unpack(const uint64_t *in, size_t plen, void *dst, size_t len);

/* The k-th nap (k from 0) of a rank waiting for others: 50 us doubling up
 * to 50 us times the ranks per CPU of this host (ranks_here ranks), so that
 * many waiting ranks do not take the CPU with their wake-ups. */
void sb_dist_nap(unsigned k, int ranks_here);
/* Linux >= 6.12 (EEVDF): ask for a 100 us time slice (on) or the default
 * (off) for the calling thread; returns whether this call changed it. */
bool sb_dist_short_slice(bool on);
#endif
