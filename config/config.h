/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * config.h: robot's configuration (robot.yaml).
 *
 * Found by `-c FILE`, then $ROBOT_CONFIG, then /etc/robot/robot.yaml, then
 * the built-in defaults below.  A request's keys win over the
 * configuration's; the command line wins over both.
 *
 *   spool: /var/spool/robot             # the queue (tmp/ new/ sent/ ...)
 *   archive_dir: /srv/0day-ci/archive   # materials behind the download link
 *   archive_url: https://download.01.org/0day-ci/archive
 *   from: "kernel test robot <lkp@intel.com>"
 *   cc: ["<oe-lkp@lists.linux.dev>", "<lkp@intel.com>"]
 *   timezone: "+0800"                   # for dates taken from the clock
 *   message_id_user: lkp                # <YYYYMMDDhhmm.hex-USER@DOMAIN>
 *   message_id_domain: intel.com
 *   reported_by: "kernel test robot <lkp@intel.com>"
 *   sender_name: "Oliver Sang"          # signs the 2020-2022 styles
 *   smtp_url: smtp://127.0.0.1:25       # for robot send (unset: mbox)
 *   mbox: /var/mail/robot               # the local mailbox
 */
#ifndef ROBOT_CONFIG_CONFIG_H
#define ROBOT_CONFIG_CONFIG_H

#include "schema.h"

struct robot_config {
	char *file; /* where it came from, or "(built-in)" */
	char *spool, *archive_dir, *archive_url;
	char *from;
	struct strv cc;
	char *timezone;
	char *message_id_user, *message_id_domain;
	char *reported_by, *sender_name;
	char *smtp_url, *mbox;
};

/*
 * Loads the configuration (see above for the search order; `path` is the
 * -c option or NULL) and fills unset keys with the built-in defaults.
 * Returns 0, or -1 after an error (exit 78).
 */
int config_load(struct robot_config *cfg, const char *path);
void config_release(struct robot_config *cfg);

#endif
