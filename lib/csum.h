/* csum.h: the checksums of verify= (crc32c, crc64, xxhash, md5, sha1,
 * sha256, sha512) through maintained, hardware-accelerated Debian libraries:
 * ISA-L (libisal-dev) for the CRCs, libxxhash (libxxhash-dev) for xxHash,
 * OpenSSL's libcrypto (libssl-dev) for MD5 and the SHAs.  configure finds
 * each one (config.h CONFIG_ISAL, CONFIG_XXHASH, CONFIG_OPENSSL); a build
 * without one knows its checksums' names and the package to install, so
 * the parser can refuse them with the fix.  Also the catalog of verify=
 * types (pattern, meta, null have no checksum). */
#ifndef SB_LIB_CSUM_H
#define SB_LIB_CSUM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum sb_vtype {
	SB_VT_NONE = 0, SB_VT_CRC32C, SB_VT_CRC64, SB_VT_XXHASH, SB_VT_MD5, SB_VT_SHA1,
	SB_VT_SHA256, SB_VT_SHA512, SB_VT_PATTERN, SB_VT_META, SB_VT_NULL, SB_VT_N
};

#define SB_CSUM_MAX 64 /* bytes of the longest digest (sha512) */

struct sb_csum_info {
	const char *name;     /* verify= name: "crc32c", ... */
	unsigned len;         /* digest bytes; 0: no checksum (none, pattern, meta, null) */
	const char *library;  /* "ISA-L", ...; NULL: none needed */
	const char *package;  /* Debian package that provides it */
};

/* Bytes of the block header that verify= writes at the start of every
 * verify_interval (run/vblock.h has its layout): 64 for digests of up to 8
 * bytes, meta and null, 128 for md5 and the SHAs, 0 for pattern (no
 * header).  Each interval also ends in a 32-byte trailer (SB_VTRAILER_LEN). */
unsigned sb_vhdr_len(unsigned type);
#define SB_VTRAILER_LEN 32u

/* the type's row; NULL when out of range */
const struct sb_csum_info *sb_csum_info(unsigned type);
/* whether this build can compute the type's checksum */
bool sb_csum_built(unsigned type);
/* tests: pretend type's library is missing (false restores) */
void sb_csum_pretend_missing(unsigned type, bool missing);

/* One thread's checksum state: set up once (may allocate), then used per
 * block without allocating. */
struct sb_csum {
	unsigned type;
	void *md_ctx;         /* OpenSSL EVP_MD_CTX */
	const void *md;       /* OpenSSL EVP_MD */
};

/* 0, -ENOTSUP when the type is not built, -ENOMEM */
int sb_csum_init(struct sb_csum *c, unsigned type);
void sb_csum_free(struct sb_csum *c);
/* The digest of a (alen bytes) followed by b (blen bytes) into out
 * (sb_csum_info(type)->len bytes; integers little-endian). */
void sb_csum2(struct sb_csum *c, const void *a, size_t alen, const void *b, size_t blen,
	      uint8_t *out);
#endif
