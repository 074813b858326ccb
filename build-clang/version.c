const char suite_version[] = "0.1.0-g3f379f0";
