static void demo_irq(struct demo *d)
{
	demo_set(d);
}
