/* Links, plain or encrypted. */
#include "net.h"

#ifdef CONFIG_SECURE_LINK
int link_open(struct link *l)
{
#ifdef CONFIG_CRYPTO
	/* SECURE_LINK selects CRYPTO: this block is always compiled with its parent. */
	return crypto_link_open(l);
#else
	return -ENOSYS;
#endif
}
#endif

#if defined(CONFIG_SECURE_LINK) && !defined(CONFIG_CRYPTO)
/* Dead: no configuration has SECURE_LINK without CRYPTO. */
#warning "secure links without crypto are insecure"
#endif

#ifdef CONFIG_NET_UPD
/* Misspelled: the symbol is NET_UDP. */
int link_datagram(struct link *l);
#endif
