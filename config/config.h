/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * config.h: robot's configuration (robot.yaml).
 *
 * Found by `-c FILE`, then $ROBOT_CONFIG, then /etc/robot/robot.yaml, then
 * the built-in defaults.  A request's keys win over the configuration's;
 * the command line wins over both.  doc/config.md describes every key;
 * the defaults are neutral (the host's name, no public URL, no list), and
 * examples/0day.yaml is the 0-day robot's identity:
 *
 *   spool: /var/spool/robot             # the queue (tmp/ new/ sent/ ...)
 *   archive_dir: /var/lib/robot/archive # materials behind the download link
 *   archive_url: https://ci.example.org/archive   # their URL (none)
 *   list_archive_url: https://lore.kernel.org/ci  # Closes:/Link: (none)
 *   from: "robot <robot@HOST>"
 *   cc: ["<ci-reports@example.org>"]    # (none)
 *   timezone: "+0800"                   # for dates taken from the clock
 *   message_id_user: robot              # <YYYYMMDDhhmm.hex-USER@DOMAIN>
 *   message_id_domain: HOST
 *   reported_by: "robot <robot@HOST>"   # (the From)
 *   sender_name: "robot"                # (its name) signs 2019-2022 styles
 *   disclaimer: |                       # (none); 0day: the period's
 *     ...                               #   0-day text; none
 *   signature: |                        # ("Thanks,\nNAME"); 0day, none
 *     ...
 *   smtp_url: smtp://127.0.0.1:25       # for robot send (unset: mbox)
 *   sendmail_cmd: /usr/sbin/sendmail -oi  # or: through sendmail
 *   mbox: /var/mail/robot               # the local mailbox
 *
 * Delivery (robot send, doc/delivery.md):
 *
 *   smtp_user: robot                    # AUTH; the password comes from
 *   smtp_password_file: /etc/robot/pw   #   this file or ROBOT_SMTP_PASSWORD
 *   smtp_starttls: required             # or opportunistic (smtp:// only)
 *   smtp_ca_file: /etc/robot/ca.pem     # CAs besides the system's
 *   smtp_timeout: 300                   # seconds for one message
 *   envelope_from: bounces@example.org  # MAIL FROM (else the From address)
 *   staging_to: test@example.org        # every mail to this one address
 *   max_per_run: 100                    # messages per run (unset: no limit)
 *   max_per_hour: 500                   # messages per hour (unset: none)
 *   max_age: 5d                         # then failed/ (s, m, h, d; 5d)
 *
 * The lore lookup (robot thread, and compose with thread_lookup; see
 * doc/threading.md):
 *
 *   lore_url: https://lore.kernel.org/all/  # a public-inbox base URL
 *   lore_cache: /var/spool/robot/lore-cache # default: <spool>/lore-cache
 *   lore_cache_ttl: 3600                # seconds an answer is reused
 *   lore_rate: 1                        # requests a second, at most
 *   lore_timeout: 30                    # seconds for one request
 *   lore_max_bytes: 8388608             # the largest answer, unpacked
 *   thread_lookup: false                # compose: reply to the patch
 *
 * Answering follow-ups (robot reply, robot inbox; see doc/reply.md):
 *
 *   robot_addresses: ["<lkp@intel.com>"] # the robot's addresses besides from
 *   reply_allow: ["@kernel.org", "a@b.c"] # senders answered (unset: anyone)
 *   inbox: /var/mail/robot-in           # the Maildir or mbox robot inbox reads
 *   inbox_seen: /var/spool/robot/inbox.seen  # default: <spool>/inbox.seen
 *   inbox_out: /var/spool/robot/requests     # default: <spool>/requests
 *   mail_max_bytes: 16777216            # the largest mail read
 */
#ifndef ROBOT_CONFIG_CONFIG_H
#define ROBOT_CONFIG_CONFIG_H

#include "config/schema.h"

struct robot_config {
	char *file; /* where it came from, or "(built-in)" */
	char *spool, *archive_dir, *archive_url, *list_archive_url;
	/*
	 * the operator's texts; NULL: no disclaimer, the neutral signature;
	 * *_0day (the value `0day`): the 0-day texts of the report's period
	 * (`none`: no disclaimer, an empty signature "")
	 */
	char *disclaimer, *signature;
	int disclaimer_0day, signature_0day;
	char *from;
	struct strv cc;
	char *timezone;
	char *message_id_user, *message_id_domain;
	char *reported_by, *sender_name;
	char *smtp_url, *mbox;
	char *sendmail_cmd; /* "/usr/sbin/sendmail -oi": the sendmail transport
			     */
	char *smtp_user, *smtp_password_file, *smtp_starttls, *smtp_ca_file;
	char *envelope_from, *staging_to;
	char *max_per_run_text, *max_per_hour_text, *max_age_text;
	/* from the texts above: 0 = no limit; max_age in seconds */
	long max_per_run, max_per_hour, max_age;
	/* seconds robot waits for the SMTP server, for one message */
	char *smtp_timeout_text;
	long smtp_timeout;
	int starttls_required; /* smtp_starttls: required (the default) */
	/* the lore lookup */
	char *lore_url, *lore_cache;
	char *lore_cache_ttl_text, *lore_rate_text, *lore_timeout_text,
		*lore_max_bytes_text;
	long lore_cache_ttl, lore_timeout;
	double lore_rate;
	size_t lore_max_bytes;
	int thread_lookup;
	/* answering follow-ups */
	struct strv robot_addresses, reply_allow;
	char *inbox, *inbox_seen, *inbox_out, *mail_max_bytes_text;
	size_t mail_max_bytes;
};

/*
 * Loads the configuration (see above for the search order; `path` is the
 * -c option or NULL) and fills unset keys with the built-in defaults.
 * Returns 0, or -1 after an error (exit 78).
 */
int config_load(struct robot_config *cfg, const char *path);
void config_release(struct robot_config *cfg);

#endif
