/* Statistics, per transport. */
#include "net.h"

#ifdef CONFIG_NET_STATS
#ifdef CONFIG_NET_UDP
unsigned long udp_datagrams;
#endif
unsigned long packets;
#endif
