int demo_map(void)
{
	int error;
	int block;
	return 0;
}
