/* The foo driver: built in or as a module. */
#include <linux/module.h>

#ifdef CONFIG_FOO_DEBUG
static void foo_debug(const char *what)
{
#if IS_MODULE(CONFIG_DRIVER_FOO)
	pr_debug("foo (module): %s\n", what);
#else
	pr_debug("foo: %s\n", what);
#endif
}
#endif

int foo_init(void)
{
#ifdef CONFIG_FOO_DEBUG
	foo_debug("init");
#endif
	return 0;
}
