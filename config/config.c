// SPDX-License-Identifier: GPL-2.0-only
/*
 * config.c: robot.yaml.  The same schema loader as requests, so a typo in
 * a key is an error naming file:line rather than a silently ignored line.
 */
#include "common.h"
#include "config.h"
#include "yaml.h"

#include <unistd.h>

#define C(key, kind, member)                                           \
	{                                                              \
		key, kind, offsetof(struct robot_config, member), NULL \
	}

static const struct field config_fields[] = {
	C("spool", FIELD_PATH, spool),
	C("archive_dir", FIELD_PATH, archive_dir),
	C("archive_url", FIELD_STR, archive_url),
	C("from", FIELD_STR, from),
	C("cc", FIELD_STRS, cc),
	C("timezone", FIELD_STR, timezone),
	C("message_id_user", FIELD_STR, message_id_user),
	C("message_id_domain", FIELD_STR, message_id_domain),
	C("reported_by", FIELD_STR, reported_by),
	C("sender_name", FIELD_STR, sender_name),
	C("smtp_url", FIELD_STR, smtp_url),
	C("mbox", FIELD_PATH, mbox),
};

static const struct schema config_schema = { "configuration", config_fields,
					     ARRAY_SIZE(config_fields),
					     sizeof(struct robot_config) };

static const struct {
	size_t offset;
	const char *value;
} defaults[] = {
	{ offsetof(struct robot_config, spool), "/var/spool/robot" },
	{ offsetof(struct robot_config, archive_dir),
	  "/var/lib/robot/archive" },
	{ offsetof(struct robot_config, archive_url),
	  "https://download.01.org/0day-ci/archive" },
	{ offsetof(struct robot_config, from),
	  "kernel test robot <lkp@intel.com>" },
	{ offsetof(struct robot_config, timezone), "+0000" },
	{ offsetof(struct robot_config, message_id_user), "lkp" },
	{ offsetof(struct robot_config, message_id_domain), "intel.com" },
	{ offsetof(struct robot_config, reported_by),
	  "kernel test robot <lkp@intel.com>" },
	{ offsetof(struct robot_config, sender_name), "kernel test robot" },
};

static int valid_tz(const char *tz)
{
	return strlen(tz) == 5 && (tz[0] == '+' || tz[0] == '-') &&
	       strspn(tz + 1, "0123456789") == 4 && atoi(tz + 3) < 60 &&
	       (tz[1] - '0') * 10 + (tz[2] - '0') < 15;
}

int config_load(struct robot_config *cfg, const char *path)
{
	const char *env = getenv("ROBOT_CONFIG");
	struct ydoc doc = { 0 };
	size_t i;
	int ret = 0;

	memset(cfg, 0, sizeof(*cfg));
	if (!path && env && *env)
		path = env;
	if (!path && !access("/etc/robot/robot.yaml", F_OK))
		path = "/etc/robot/robot.yaml";
	if (path) {
		if (ydoc_load_file(&doc, path))
			return -1;
		if (doc.root)
			ret = schema_load(cfg, &config_schema, doc.root, path);
		ydoc_release(&doc);
		if (ret)
			return -1;
	}
	for (i = 0; i < ARRAY_SIZE(defaults); i++) {
		char **p = (char **)((char *)cfg + defaults[i].offset);

		if (!*p)
			*p = xstrdup(defaults[i].value);
	}
	if (!valid_tz(cfg->timezone))
		return error("%s: timezone: '%s' is not of the form +HHMM",
			     path ? path : "(built-in)", cfg->timezone);
	cfg->file = xstrdup(path ? path : "(built-in)");
	return 0;
}

void config_release(struct robot_config *cfg)
{
	char *file = cfg->file;

	schema_release(cfg, &config_schema);
	free(file);
}
