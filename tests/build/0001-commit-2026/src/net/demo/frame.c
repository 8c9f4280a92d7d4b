#include <linux/demo.h>

int frame_rx(struct frame *f)
{
	/* count it */
	frame_count(f);

	return len;
}
