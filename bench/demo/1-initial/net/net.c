/* The transport is chosen in Kconfig: exactly one of TCP and UDP. */
#include "net.h"

#if defined(CONFIG_NET_TCP)
static const char transport[] = "tcp";
#elif defined(CONFIG_NET_UDP)
static const char transport[] = "udp";
#endif

const char *net_transport(void)
{
	return transport;
}
