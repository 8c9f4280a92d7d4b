# /etc/cron.d/robot: an example, disabled.  Uncomment the line below to
# deliver robot's queued mails every 5 minutes from cron, as the user
# robot, instead of robot-send.timer (systemctl enable --now
# robot-send.timer); do not use both.  cron mails what robot prints to
# the user robot (or MAILTO); robot send exits 75 on a temporary failure
# and the next run retries.
#
#*/5 * * * *	robot	test -x /usr/bin/robot && /usr/bin/robot send -c /etc/robot/robot.yaml
