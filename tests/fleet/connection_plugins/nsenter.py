# A connection into a booted systemd-nspawn container for the fleet test (stage 58-fleet):
# every command runs with `nsenter -t PID -a` (all the namespaces of the container's PID 1),
# files go in and out through `cat`. ansible-core has no connection for this, and the
# containers the host tests boot have a private network and no sshd. Test-only.
from __future__ import annotations

DOCUMENTATION = """
name: nsenter
short_description: run commands in all namespaces of a process (a booted container's PID 1)
description:
  - Runs each command with nsenter -t PID -a and a clean environment.
author: nginx-gen
options:
  nsenter_pid:
    description: The PID whose namespaces to enter (the container's PID 1 as seen here).
    vars:
      - name: nginx_gen_nsenter_pid
    required: true
"""

import shlex
import subprocess

from ansible.errors import AnsibleError
from ansible.plugins.connection import ConnectionBase

ENV = ["env", "-i", "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
       "HOME=/root", "LANG=C.UTF-8"]


class Connection(ConnectionBase):
    transport = "nsenter"
    has_pipelining = True

    def _connect(self):
        self._connected = True
        return self

    def _run(self, cmd, in_data=None):
        pid = str(self.get_option("nsenter_pid"))
        argv = ["nsenter", "-t", pid, "-a"] + ENV + ["/bin/sh", "-c", cmd]
        p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
        out, err = p.communicate(in_data)
        return p.returncode, out, err

    def exec_command(self, cmd, in_data=None, sudoable=True):
        super().exec_command(cmd, in_data=in_data, sudoable=sudoable)
        return self._run(cmd, in_data)

    def put_file(self, in_path, out_path):
        super().put_file(in_path, out_path)
        with open(in_path, "rb") as f:
            rc, _, err = self._run("cat > " + shlex.quote(out_path), f.read())
        if rc != 0:
            raise AnsibleError(f"put_file {out_path}: {err!r}")

    def fetch_file(self, in_path, out_path):
        super().fetch_file(in_path, out_path)
        rc, out, err = self._run("cat " + shlex.quote(in_path))
        if rc != 0:
            raise AnsibleError(f"fetch_file {in_path}: {err!r}")
        with open(out_path, "wb") as f:
            f.write(out)

    def close(self):
        self._connected = False
