const char suite_version[] = "0.1.0-g290c637";
