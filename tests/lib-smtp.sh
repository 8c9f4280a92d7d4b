# SPDX-License-Identifier: GPL-2.0-only
#
# tests/lib-smtp.sh: real SMTP servers for the delivery tests, each on a
# free 127.0.0.1 port, stopped by PID when the test ends.  Sourced after
# tests/lib.sh.
#
#   smtpd_start NAME [ARG...]   tests/helpers/smtpd.py (aiosmtpd) storing
#                               what it accepts in $T/NAME.mail/N.eml and
#                               N.env; sets NAME_port and NAME_pid
#   smtpd_stop NAME
#   sink_start NAME [ARG...]    postfix's smtp-sink (ARG: its fault options,
#                               e.g. -Q RCPT); sets NAME_port and NAME_pid
#   make_cert                   $T/cert.pem and $T/key.pem for 127.0.0.1
#   received NAME               the number of messages NAME stored
#   smtp_config NAME FILE [LINE...]  a robot.yaml for server NAME

SMTPD=$TOP/tests/helpers/smtpd.py
smtp_pids=

smtp_stop_all() {
	for _p in $smtp_pids; do
		kill "$_p" 2>/dev/null
	done
	for _p in $smtp_pids; do
		wait "$_p" 2>/dev/null
	done
	smtp_pids=
}
trap 'smtp_stop_all; cleanup' EXIT

# wait_for FILE: up to 20 s
wait_for() {
	_i=0
	while [ ! -s "$1" ] && [ $_i -lt 200 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	[ -s "$1" ]
}

smtpd_start() {
	_name=$1
	shift
	mkdir -p "$T/$_name.mail"
	rm -f "$T/$_name.port"
	"$PYTHON" "$SMTPD" --port-file "$T/$_name.port" --dir "$T/$_name.mail" \
		"$@" >"$T/$_name.log" 2>&1 &
	_pid=$!
	smtp_pids="$smtp_pids $_pid"
	if ! wait_for "$T/$_name.port"; then
		echo "# smtpd $_name did not start:"
		sed 's/^/# /' "$T/$_name.log"
		return 1
	fi
	eval "${_name}_port=$(cat "$T/$_name.port")"
	eval "${_name}_pid=$_pid"
}

smtpd_stop() {
	eval "_pid=\$${1}_pid"
	kill "$_pid" 2>/dev/null
	wait "$_pid" 2>/dev/null
}

# free_port: a port nobody listens on now
free_port() {
	"$PYTHON" -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}

sink_start() {
	_name=$1
	shift
	_try=0
	while [ $_try -lt 5 ]; do
		_port=$(free_port)
		if [ "$(id -u)" -eq 0 ]; then
			/usr/sbin/smtp-sink -u nobody "$@" "127.0.0.1:$_port" 64 \
				>"$T/$_name.log" 2>&1 &
		else
			/usr/sbin/smtp-sink "$@" "127.0.0.1:$_port" 64 \
				>"$T/$_name.log" 2>&1 &
		fi
		_pid=$!
		_i=0
		while [ $_i -lt 50 ]; do
			if "$PYTHON" -c 'import socket, sys
socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1).close()' \
				"$_port" 2>/dev/null; then
				smtp_pids="$smtp_pids $_pid"
				eval "${_name}_port=$_port"
				eval "${_name}_pid=$_pid"
				return 0
			fi
			kill -0 "$_pid" 2>/dev/null || break
			sleep 0.1
			_i=$((_i + 1))
		done
		kill "$_pid" 2>/dev/null
		wait "$_pid" 2>/dev/null
		_try=$((_try + 1))
	done
	echo "# smtp-sink $_name did not start:"
	sed 's/^/# /' "$T/$_name.log"
	return 1
}

make_cert() {
	[ -f "$T/cert.pem" ] && return 0
	openssl req -x509 -newkey rsa:2048 -nodes -keyout "$T/key.pem" \
		-out "$T/cert.pem" -days 2 -subj /CN=127.0.0.1 \
		-addext "subjectAltName=IP:127.0.0.1,DNS:localhost" \
		>/dev/null 2>&1
}

received() {
	find "$T/$1.mail" -name '*.eml' 2>/dev/null | wc -l
}

# smtp_config NAME FILE [LINE...]: FILE with spool FILE.spool and smtp_url
# smtp://127.0.0.1:<NAME's port>, then the extra lines
smtp_config() {
	_name=$1
	_file=$2
	shift 2
	eval "_port=\$${_name}_port"
	{
		printf 'spool: %s.spool\n' "$(basename "$_file" .yaml)"
		printf 'smtp_url: smtp://127.0.0.1:%s/robot.test\n' "$_port"
		for _l in "$@"; do
			printf '%s\n' "$_l"
		done
	} >"$_file"
}
