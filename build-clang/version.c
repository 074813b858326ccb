const char suite_version[] = "0.1.0-ga4f2426";
