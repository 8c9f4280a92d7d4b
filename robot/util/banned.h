/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * banned.h: functions robot must not call.  Each one is redefined to a name
 * that does not exist, so a call fails to compile.  Use snprintf, strbuf and
 * the reentrant _r time functions instead.
 */
#ifndef ROBOT_BANNED_H
#define ROBOT_BANNED_H

#define BANNED(func) sorry_##func##_is_a_banned_function

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) BANNED(strncpy)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef strtok
#define strtok(x, y) BANNED(strtok)
#undef gmtime
#define gmtime(t) BANNED(gmtime)
#undef localtime
#define localtime(t) BANNED(localtime)
#undef ctime
#define ctime(t) BANNED(ctime)
#undef asctime
#define asctime(t) BANNED(asctime)

#endif
