/* csum.c: verify= checksums through ISA-L, libxxhash and OpenSSL (see
 * csum.h).  No checksum code of our own: each type calls its library. */
#include <errno.h>
#include <string.h>

#include "config.h"
#include "lib/csum.h"

#ifdef CONFIG_ISAL
#include <isa-l/crc.h>
#include <isa-l/crc64.h>
#endif
#ifdef CONFIG_XXHASH
#define XXH_STATIC_LINKING_ONLY /* XXH3_state_t on the stack */
#include <xxhash.h>
#endif
#ifdef CONFIG_OPENSSL
#include <openssl/evp.h>
#endif

static const struct sb_csum_info info[SB_VT_N] = {
	[SB_VT_NONE] = { "none", 0, NULL, NULL },
	[SB_VT_CRC32C] = { "crc32c", 4, "ISA-L", "libisal-dev" },
	[SB_VT_CRC64] = { "crc64", 8, "ISA-L", "libisal-dev" },
	[SB_VT_XXHASH] = { "xxhash", 8, "libxxhash", "libxxhash-dev" },
	[SB_VT_MD5] = { "md5", 16, "OpenSSL libcrypto", "libssl-dev" },
	[SB_VT_SHA1] = { "sha1", 20, "OpenSSL libcrypto", "libssl-dev" },
	[SB_VT_SHA256] = { "sha256", 32, "OpenSSL libcrypto", "libssl-dev" },
	[SB_VT_SHA512] = { "sha512", 64, "OpenSSL libcrypto", "libssl-dev" },
	[SB_VT_PATTERN] = { "pattern", 0, NULL, NULL },
	[SB_VT_META] = { "meta", 0, NULL, NULL },
	[SB_VT_NULL] = { "null", 0, NULL, NULL },
};

static bool pretend_missing[SB_VT_N];

unsigned sb_vhdr_len(unsigned type)
{
	if (type == SB_VT_NONE || type == SB_VT_PATTERN || type >= SB_VT_N)
		return 0;
	return info[type].len > 8 ? 128 : 64;
}

const struct sb_csum_info *sb_csum_info(unsigned type)
{
	return type < SB_VT_N ? &info[type] : NULL;
}

void sb_csum_pretend_missing(unsigned type, bool missing)
{
	if (type < SB_VT_N)
		pretend_missing[type] = missing;
}

static bool lib_built(unsigned type)
{
	switch (type) {
	case SB_VT_CRC32C:
	case SB_VT_CRC64:
#ifdef CONFIG_ISAL
		return true;
#else
		return false;
#endif
	case SB_VT_XXHASH:
#ifdef CONFIG_XXHASH
		return true;
#else
		return false;
#endif
	case SB_VT_MD5:
	case SB_VT_SHA1:
	case SB_VT_SHA256:
	case SB_VT_SHA512:
#ifdef CONFIG_OPENSSL
		return true;
#else
		return false;
#endif
	default:
		return type < SB_VT_N;
	}
}

bool sb_csum_built(unsigned type)
{
	return type < SB_VT_N && !pretend_missing[type] && lib_built(type);
}

int sb_csum_init(struct sb_csum *c, unsigned type)
{
	memset(c, 0, sizeof(*c));
	c->type = type;
	if (!sb_csum_built(type))
		return -ENOTSUP;
#ifdef CONFIG_OPENSSL
	const EVP_MD *md = NULL;
	switch (type) {
	case SB_VT_MD5: md = EVP_md5(); break;
	case SB_VT_SHA1: md = EVP_sha1(); break;
	case SB_VT_SHA256: md = EVP_sha256(); break;
	case SB_VT_SHA512: md = EVP_sha512(); break;
	default: break;
	}
	if (md) {
		c->md = md;
		c->md_ctx = EVP_MD_CTX_new();
		if (!c->md_ctx)
			return -ENOMEM;
	}
#endif
	return 0;
}

void sb_csum_free(struct sb_csum *c)
{
#ifdef CONFIG_OPENSSL
	EVP_MD_CTX_free(c->md_ctx);
#endif
	c->md_ctx = NULL;
}

static void put_le(uint8_t *out, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		out[i] = (uint8_t)(v >> (8 * i));
}

void sb_csum2(struct sb_csum *c, const void *a, size_t alen, const void *b, size_t blen,
	      uint8_t *out)
{
	(void)a; (void)alen; (void)b; (void)blen; (void)out;
	switch (c->type) {
#ifdef CONFIG_ISAL
	case SB_VT_CRC32C: { /* CRC-32C (Castagnoli), as iSCSI and ext4 */
		uint32_t crc = ~0u;
		crc = crc32_iscsi((unsigned char *)a, (int)alen, crc);
		crc = crc32_iscsi((unsigned char *)b, (int)blen, crc);
		put_le(out, ~crc, 4);
		return;
	}
	case SB_VT_CRC64: { /* CRC-64/XZ (ECMA-182 polynomial, reflected) */
		uint64_t crc = crc64_ecma_refl(0, a, alen);
		put_le(out, crc64_ecma_refl(crc, b, blen), 8);
		return;
	}
#endif
#ifdef CONFIG_XXHASH
	case SB_VT_XXHASH: { /* XXH3, 64-bit */
		XXH3_state_t st;
		XXH3_64bits_reset(&st);
		XXH3_64bits_update(&st, a, alen);
		XXH3_64bits_update(&st, b, blen);
		put_le(out, XXH3_64bits_digest(&st), 8);
		return;
	}
#endif
#ifdef CONFIG_OPENSSL
	case SB_VT_MD5:
	case SB_VT_SHA1:
	case SB_VT_SHA256:
	case SB_VT_SHA512: {
		EVP_DigestInit_ex(c->md_ctx, c->md, NULL);
		EVP_DigestUpdate(c->md_ctx, a, alen);
		EVP_DigestUpdate(c->md_ctx, b, blen);
		EVP_DigestFinal_ex(c->md_ctx, out, NULL);
		return;
	}
#endif
	default:
		(void)put_le;
		return;
	}
}
