#!/usr/bin/env python3
"""Writes the hostile-input corpus (flags.jsonl, json.jsonl, sizes.jsonl, url.jsonl).

The .jsonl files are the corpus and are committed; this script is how they were made, and
may be rerun after adding cases (the output is sorted and deterministic). Each line is one
case with the field its error must name. runner.rs runs them against the nginx-gen binary.
"""
import json
import re
from pathlib import Path

HERE = Path(__file__).parent

HOSTILE = [";", "{", "}", '"', "'", "#", "$", "\n", "\r", "\t", " ", "\\", "`",
           "; autoindex on", "}\nserver {", "# x", "$host", "ä", "例", "\u202e", "\u200b", "😀"]
LONG = "a" * 5000

bad_sizes = ["", " ", "8Q", "-1G", "G", "1.2.3G", "99999999999T", "1e9", "0x10G", "8 G B", "8GG",
             "8 Gi", "1,5G", "١G", "８G", "8G;", "8G}", "8G\n#", "NaN", "inf", "-0", "+-8G",
             "8..5G", ".", "..5G", "1.0000000001G", "$ram", "8M;include /etc/passwd",
             "18446744073709551616", "17T", "1P", "8 EiB", "8G 8G", "0", "1023",
             "2G\u0000", LONG, "8G" + "\u202e", "Ｇ8", "8Gb!", "--8G", "8_000M"]
# Sizes valid as text but out of range for ram (256M..16T) / response_size (1K..1G).
ram_out_of_range = ["0", "1", "255M", "17T", "100T", "1K", "0.1G"]
resp_out_of_range = ["0", "1", "1023", "2G", "1.5G", "16T"]
body_out_of_range = ["0", "1", "1023", "0.5K", "65G", "64.5G", "1T", "16T"]

def flag(field):
    return "--" + field.replace("_", "-")

cases_flags = []
# Flag cases that have no JSON form (clap's own errors: a value given to a switch, a switch
# repeated).
FLAG_ONLY = []
def f(field, *args, accept=False, pending=None, json_form=True):
    """A flag case. accept: the generator must accept it and the tree pass nginx -t (the
    runner adds the test certificate to --tls); else exit 2 naming `field`. pending: a
    finding reported to core and not fixed yet (docs/verification.md)."""
    # A value that starts with '-' is written --flag=value, or the parser reads it as a flag.
    out = []
    for a in args:
        if out and out[-1].startswith("--") and "=" not in out[-1] and a.startswith("-") and a != "--" and not a.startswith("--"):
            out[-1] = out[-1] + "=" + a
        else:
            out.append(a)
    case = {"args": out, "field": field}
    if accept:
        case["accept"] = True
    if pending:
        case["pending"] = pending
    cases_flags.append(case)
    if not json_form:
        FLAG_ONLY.append(case)

for v in ["0", "-1", "1025", "abc", "4.5", "", "4;", "0x10", "1e3", "99999999999999999999", "٤", "4 4", "+-4", LONG]:
    f("vcpu", "--vcpu", v)
for v in bad_sizes + ram_out_of_range:
    if "\u0000" not in v:
        f("ram", "--ram", v)
for v in bad_sizes + resp_out_of_range:
    if "\u0000" not in v:
        f("response_size", "--response-size", v)
for v in ["foo", "", "static;", "stat ic", "prox-y"]:
    f("workload", "--workload", v)
for v in ["1", "abc", "1.17", "0.9", "10.0", "1.22.1.1", "1.x", "", "1.22;", "-1.22", "1.22.1-r1", "x1.22", "1..22"]:
    f("nginx_version", "--nginx-version", v)
for v in ["1.1.0", "1.0.2", "abc", "", "3", "3.0.0.0", "3.x"]:
    f("openssl_version", "--openssl-version", v)
for v in ["0", "65536", "-1", "abc", "443;", "4 43", ""]:
    f("tls_port", "--tls", "--tls-port", v)
f("tls_port", "--tls", "--tls-port", "80")
f("tls_port", "--tls", "--listen", "8443", "--tls-port", "8443")
for h in HOSTILE + [LONG, "", "-a.example", "a-.example", "a..example", "*.*.example", "~^regex$", "a_b.example",
                    "exa mple.com", "*", "example.com.", "a" * 64 + ".example"]:
    for v in ([h] if h in ("", LONG) else [h, "example.com" + h, h + "example.com"]):
        labels = v[2:].split(".") if v.startswith("*.") else v.split(".")
        if v == "_" or all(re.fullmatch(r"[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?", l) for l in labels) and len(v) <= 253:
            continue  # a valid host name
        f("server_names", "--server-name", v)
f("server_names", "--server-name", "example.com", "--server-name", "EXAMPLE.com")
f("server_names", *sum([["--server-name", f"s{i}.example"] for i in range(33)], []))
for h in HOSTILE + ["", "relative/path", "./x", "/a/../b", "/..", "~/www", "/var/www/" + "a" * 1100]:
    for v in ([h] if h == "" else [h, "/var/www" + h, "/var/www/" + h + "x"]):
        if v.startswith("/") and all(c.isalnum() and c.isascii() or c in "/._-+@%,:=~" for c in v) and ".." not in v.split("/") and len(v) <= 1024:
            continue  # accidentally valid
        f("root", "--root", v)
for v in ["0", "65536", "abc", "1.2.3.4", "1.2.3.4:", ":80", "[::1]", "[::1]80", "localhost:80", "256.0.0.1:80",
          "80;", "80 default_server", "443", "0.0.0.0:443", "[::]:443", "unix:/x", "::1:80", "[fe80::1%eth0]:80", "80\n", "-80", "*:", "*:0", ""]:
    f("listen", "--listen", v)
for v in ["10.0.0.5", "host", ":80", "a b:80", "unix:relative", "unix:/a;b", "[::1:80", "a..b:80", "-a.com:80", "x:0",
          "x:65536", "http://x:80", "x:80/path", "x:80;", "unix:", "unix:/a/../b", "x:80 backup", "é.example:80",
          "$host:80", "", "[::g]:80", "1.2.3.4:80:90"]:
    f("upstreams", "--workload", "proxy", "--upstream", v)
f("upstreams", "--workload", "proxy", "--upstream", "127.0.0.1:80", "--upstream", "127.0.0.1:80")
for v in ["0", "10000001", "abc", "-5", "1.5", ""]:
    f("clients", "--clients", v)
for v in ["-1", "100000001", "x", "1e6", ""]:
    f("static_files", "--static-files", v)
# file_max (issue 12): a detected fs.file-max, 1024 … 4294967295; larger is not accepted.
for v in ["0", "1023", "-1", "4294967296", "9223372036854775807", "x", "1e6", "", "2G", "1024;", "$file_max"]:
    f("file_max", "--file-max", v)
for v in ["1024", "200000", "4294967295", " 812345 "]:
    f("file_max", "--file-max", v, accept=True)
f("file_max", "--file-max", "200000", "--vcpu", "64", "--clients", "1000000", accept=True)
f("ktls", "--tls", "--ktls", accept=True, json_form=False)
f("ktls", "--tls", "--ktls", "--nginx-version", "1.20.2", accept=True, json_form=False)
for v in ["10.0.0.0/33", "abc", "10.0.0.0/8;", "::/129", "1.2.3.4/", "/8", "10.0.0.0/-1", "10.0.0/8", "300.0.0.0/8",
          "10.0.0.0/8 ", "all", "unix:", ""]:
    f("trusted_proxies", "--behind-lb", "--trusted-proxy", v)
for v in ["ubuntu", "", "deb ian", "debian;"]:
    f("layout", "--layout", v)
for v in ["fr", "", "e n", "en_US"]:
    f("lang", "--lang", v)
for v in ["old", "", "mod ern"]:
    f("tls_profile", "--tls", "--tls-profile", v)
f("http3", "--http3")
f("http3", "--http3", "--tls", "--nginx-version", "1.24")
f("ocsp_stapling", "--ocsp-stapling")
f("tls_key", "--tls", "--tls-cert", "/etc/ssl/c.pem")
f("tls_cert", "--tls", "--tls-key", "/etc/ssl/k.pem")
for h in [";", "{", "#", " ", "\n", "relative.pem", "/a/../b.pem", "$x"]:
    f("tls_cert", "--tls", "--tls-cert", "/etc/ssl/c.pem" + h if h.startswith(("/", ";", "{", "#", " ", "\n", "$")) else h, "--tls-key", "/etc/ssl/k.pem")
    f("tls_key", "--tls", "--tls-cert", "/etc/ssl/c.pem", "--tls-key", h if not h.startswith((";", "{", "#", " ", "\n", "$")) else "/etc/ssl/k.pem" + h)
f("cpus", "--cpus", "4")
f("vcpu", "--vcpu", "4", "--vcpu", "8")

# --- inputs added after the first corpus (issue 11) -----------------------------------------
# listen is a list (repeatable --listen), max_body_size a size, bootstrap a switch (only with
# tls), resolver an IP address, release a choice of distribution releases,
# existing_default_server a switch; nginx_version/openssl_version accept `any`.
# Injection into a listen entry: alone, after a port, before a port and after an address.
for h in HOSTILE + ["\u00a0", "\u2003", "\u3000", "${port}", "80", "８０"]:
    for v in [h, "80" + h, h + "80", "127.0.0.1:80" + h, "[::1]:80" + h]:
        if re.fullmatch(r"(\*:|127\.0\.0\.1:|\[::1\]:)?[0-9]{1,5}", v):
            continue  # a valid listen value
        f("listen", "--listen", v)
        f("listen", "--listen", "8080", "--listen", v)  # a bad entry after a good one
for v in ["65536:80", "80:80", "1.2.3.4.5:80", "[::1]:", "[]:80", "[::1]]:80", "[[::1]]:80", "::80", "*:*",
          "0.0.0.0:0", "[::]:65536", "127.0.0.1:080x", "localhost", "*", "[fe80::1%eth0]:8080", "fe80::1%eth0",
          "80,8080", "80 8080", "127.0.0.1/8:80", "0x50", "1e2", "++80", "+-80", "80+"]:
    f("listen", "--listen", v)
# Duplicates: the same socket written twice, in the same or another spelling.
f("listen", "--listen", "80", "--listen", "*:80")
f("listen", "--listen", "8080", "--listen", "8080")
f("listen", "--listen", "[::]:80", "--listen", "[0::0]:80")
f("listen", "--listen", "127.0.0.1:8080", "--listen", "127.000.0.1:8080")
f("listen", *sum([["--listen", str(8000 + i)] for i in range(33)], []))
# F10 (fixed): `80` (every IPv4 address) and `0.0.0.0:80` are one socket; nginx refuses
# "a duplicate listen 0.0.0.0:80".
f("listen", "--listen", "80", "--listen", "0.0.0.0:80")
f("listen", "--listen", "*:8080", "--listen", "0.0.0.0:8080")
# F12 (fixed): addresses no machine can bind a TCP listener to (bind() EINVAL in nginx -t):
# IPv4-mapped IPv6, IPv6 multicast, IPv6 link-local without a zone.
for v in ["[::ffff:127.0.0.1]:8080", "[::ffff:0.0.0.0]:8080", "[ff02::1]:8080", "[fe80::1]:8080"]:
    f("listen", "--listen", v)
# Combinations: 443 without tls, a listen port equal to tls_port (on any address).
for v in ["443", "*:443", "127.0.0.1:443", "[::1]:443"]:
    f("listen", "--listen", "80", "--listen", v)
f("tls_port", "--tls", "--listen", "443")
f("tls_port", "--tls", "--listen", "80", "--listen", "127.0.0.1:8443", "--tls-port", "8443")
f("tls_port", "--tls", "--listen", "[::1]:8443", "--tls-port", "8443")
f("tls_port", "--tls", "--bootstrap", "--listen", "443")
# Accepted: several addresses and ports, nginx -t-safe.
f("listen", "--listen", "80", "--listen", "127.0.0.1:8080", "--listen", "[::1]:8081", accept=True)
f("listen", "--listen", "*:8080", "--listen", "[::]:8080", accept=True)
f("listen", "--listen", "80", "--listen", "127.0.0.1:80", accept=True)
# Lenient but normalised: `+80` is port 80 (Rust's integer parser takes a plus sign) and is
# written back as `80`.
f("listen", "--listen", "+8080", accept=True)
f("listen", "--tls", "--listen", "127.0.0.1:8080", "--listen", "[::1]:8080", "--tls-port", "8443", accept=True)
f("listen", *sum([["--listen", f"127.0.0.1:{9000 + i}"] for i in range(32)], []), accept=True)
# F11 (fixed): with tls, each plain listen gets an HTTPS listen on its address and tls_port;
# two plain ports on one address give `listen 443 ssl` twice ("a duplicate listen").
f("listen", "--tls", "--listen", "80", "--listen", "8080", accept=True)
f("listen", "--tls", "--listen", "127.0.0.1:80", "--listen", "127.0.0.1:8080", accept=True)

# max_body_size: every bad size runs through sizes.jsonl; these are the accepted edges.
for v in ["1K", "1024", "1.5K", "512MiB", "8 GB", "64G", "64GiB"]:
    f("max_body_size", "--max-body-size", v, accept=True)

# bootstrap: only with tls; a switch takes no value.
f("bootstrap", "--bootstrap")
f("bootstrap", "--bootstrap", "--listen", "8080")
f("bootstrap", "--bootstrap", "--behind-lb")
for v in ["true", "yes", "1", ""]:
    f("bootstrap", f"--bootstrap={v}", json_form=False)
f("bootstrap", "--tls", "--bootstrap", "--bootstrap", json_form=False)
f("bootstrap", "--tls", "--bootstrap", accept=True)
f("bootstrap", "--tls", "--bootstrap", "--listen", "80", "--listen", "[::1]:8080", "--tls-port", "8443", accept=True)
f("bootstrap", "--tls", "--bootstrap", "--existing-default-server", accept=True)

# existing_default_server: a switch.
for v in ["true", "no", "0"]:
    f("existing_default_server", f"--existing-default-server={v}", json_form=False)
f("existing_default_server", "--existing-default-server", "--existing-default-server", json_form=False)
f("existing_default_server", "--existing-default-server", accept=True)
f("existing_default_server", "--existing-default-server", "--tls", "--listen", "8080", accept=True)

# resolver: an IP address, v4, v6 or bracketed v6; no port, zone, name or list.
for h in HOSTILE:
    for v in [h, "127.0.0.53" + h, h + "127.0.0.53", "[::1]" + h]:
        f("resolver", "--resolver", v)
for v in ["fe80::1%eth0", "[fe80::1%eth0]", "fe80::1%25eth0", "127.0.0.1:53", "[::1]:53", "localhost", "dns.example",
          "1.2.3", "256.1.1.1", "127.1", "0x7f.0.0.1", "127.000.000.001", "::1]", "[::1", "[[::1]]",
          "::g", "1.2.3.4/32", "[[127.0.0.1]]", "127.0.0.1,127.0.0.2", "127.0.0.1 127.0.0.2", "127.0.0.1 valid=30s", "-1.2.3.4",
          "+127.0.0.1", "０.０.０.０", "127.0.0.1\u200b", "\u00a0127.0.0.1", "unix:/run/dns.sock", ""]:
    f("resolver", "--resolver", v)
    f("resolver", "--tls", "--ocsp-stapling", "--resolver", v)
f("resolver", "--resolver", "127.0.0.1", "--resolver", "::1", json_form=False)
for v in ["127.0.0.53", "::1", "[::1]", "2001:db8::53", "[2001:db8::53]"]:
    f("resolver", "--tls", "--ocsp-stapling", "--resolver", v, accept=True)
f("resolver", "--resolver", "192.0.2.53", accept=True)  # only used with ocsp_stapling
# Lenient but normalised: a bracketed IPv4 address is written back without brackets.
f("resolver", "--tls", "--ocsp-stapling", "--resolver", "[127.0.0.1]", accept=True)

# release: a choice. (Case variants are left out: finding F6, JSON is case-insensitive.)
for v in ["debian-14", "debian", "debian12", "debian_12", "debian-12;", "debian-12 x", "ubuntu-22.04.1",
          "rhel-9\n", "$release", "ａｎｙ", "nginx-org", "docker", "any;", "",
          "debian-\u200b12", "alpine-3.20", "../debian-12"]:
    f("release", "--release", v)
f("release", "--release", "debian-12", "--release", "debian-13", json_form=False)
for v in ["any", "debian-12", "debian-13", "ubuntu-22.04", "ubuntu-24.04", "rhel-9", "rhel-10", "nginx-org-stable",
          "nginx-org-mainline", "docker-stable", "docker-mainline"]:
    # The versions given win over the release's, so Debian's nginx 1.22 can check the tree.
    f("release", "--release", v, "--nginx-version", "1.22.1", "--openssl-version", "3.0", accept=True)
f("http3", "--release", "debian-12", "--tls", "--http3")

# nginx_version/openssl_version: `any`, and nothing that only starts or ends like it.
for v in ["any;", "anyx", "any.1", "1.any", "any 1.22", "an y", "$any", "ａｎｙ", "any\u200b", "any\n#", "any-1.22",
          "any,1.22", "*", "latest", "any}"]:
    f("nginx_version", "--nginx-version", v)
    f("openssl_version", "--openssl-version", v)
f("nginx_version", "--nginx-version", "any", accept=True)
f("openssl_version", "--openssl-version", "any", accept=True)
f("openssl_version", "--nginx-version", "1.22.1", "--openssl-version", "any", "--tls", accept=True)

# --- JSON documents ----------------------------------------------------------------------
cases_json = []
def j(field, doc, pending=None, accept=False):
    case = {"doc": doc if isinstance(doc, str) else json.dumps(doc, ensure_ascii=False), "field": field}
    if accept:
        case["accept"] = True
    if pending:
        case["pending"] = pending
    cases_json.append(case)

for doc in ["", " ", "{", "}", "[", "null", "42", '"x"', "{vcpu: 4}", "{'vcpu': 4}", '{"vcpu": 4,}', '{"vcpu" 4}',
            '{"vcpu": 4', '{"vcpu": 04}', '{"vcpu": NaN}',  "\u0000", '{"a\u0000": 1}',
            "\ufeff{}", "{" * 1000, '{"vcpu": 4, /* c */ "ram": "8G"}', '# {"vcpu": 4}']:
    j("input", doc)
# Finding F5 (docs/verification.md): trailing data and arrays, rejected since the fix.
for doc in ['{"vcpu": 4} x', '{"vcpu": 4}\n{"ram": "8G"}', "[]", '[4, "8G"]', '{"vcpu": 4}}']:
    j("input", doc)
j("vcpu", {"vcpu": True}); j("vcpu", {"vcpu": 4.5}); j("vcpu", {"vcpu": [4]}); j("vcpu", {"vcpu": {"n": 4}})
j("vcpu", '{"vcpu": 1e2}'); j("vcpu", {"vcpu": -4}); j("vcpu", {"vcpu": 2**63})
j("vcpu", '{"vcpu": 99999999999999999999999}'); j("vcpu", {"vcpu": "4\u0000"}); j("vcpu", {"vcpu": 0})
j("ram", {"ram": 8}); j("ram", {"ram": ["8G"]}); j("ram", {"ram": True})
j("tls", {"tls": "yes"}); j("tls", {"tls": 1}); j("http3", {"http3": "true"})
j("brotli", {"brotli": 0}); j("behind_lb", {"behind_lb": []}); j("ocsp_stapling", {"ocsp_stapling": "on"})
j("server_names", {"server_names": "example.com"}); j("server_names", {"server_names": [1]})
j("server_names", {"server_names": []}); j("server_names", {"server_names": [None]})
j("server_names", {"server_names": ["a"] * 2}); j("server_names", {"server_names": [f"s{i}.x" for i in range(40)]})
j("upstreams", {"upstreams": "127.0.0.1:80"}); j("upstreams", {"upstreams": []}); j("upstreams", {"upstreams": [{"host": "x"}]})
j("trusted_proxies", {"trusted_proxies": ["10.0.0.0/8", 10]}); j("trusted_proxies", {"trusted_proxies": []})
j("listen", {"listen": 80}); j("root", {"root": ["/var/www"]}); j("tls_cert", {"tls_cert": 1, "tls": True})
j("workload", {"workload": 1}); j("workload", {"workload": "static\u0000"}); j("layout", {"layout": 7})
j("lang", {"lang": ["en"]}); j("tls_port", {"tls_port": 443.0}); j("tls_port", {"tls_port": True})
j("clients", {"clients": -1}); j("static_files", {"static_files": "1,000"}); j("nginx_version", {"nginx_version": 1.22})
j("openssl_version", {"openssl_version": 3}); j("response_size", {"response_size": 32768})
# The new inputs: wrong JSON types (a string where listen's list is expected and a list
# where a text is), duplicate keys, NUL bytes.
j("listen", {"listen": "80"}); j("listen", {"listen": "80,8080"}); j("listen", {"listen": [80]})
j("listen", {"listen": ["80", 8080]}); j("listen", {"listen": [["80"]]}); j("listen", {"listen": []})
j("listen", {"listen": [None]}); j("listen", {"listen": {"port": 80}}); j("listen", {"listen": True})
j("listen", {"listen": ["80\u0000"]}); j("listen", {"listen": ["8080", "80\u0000; include /etc/passwd"]})
j("listen", '{"listen": ["80"], "listen": ["8080"]}')
j("listen", {"listen": [str(8000 + i) for i in range(40)]})
j("listen", {"listen": ["8080", "8080"]})
j("max_body_size", {"max_body_size": 1048576}); j("max_body_size", {"max_body_size": ["1M"]})
j("max_body_size", {"max_body_size": True}); j("max_body_size", {"max_body_size": "1M\u0000"})
j("max_body_size", '{"max_body_size": "1M", "max_body_size": "2M"}')
j("bootstrap", {"bootstrap": "true", "tls": True}); j("bootstrap", {"bootstrap": 1, "tls": True})
j("bootstrap", {"bootstrap": [True], "tls": True}); j("bootstrap", {"bootstrap": True, "tls": False})
j("tls", {"bootstrap": True, "tls": "true"})
j("existing_default_server", {"existing_default_server": "yes"}); j("existing_default_server", {"existing_default_server": 1})
j("existing_default_server", {"existing_default_server": [True]}); j("existing_default_server", {"existing_default_server": "true"})
j("resolver", {"resolver": ["127.0.0.53"]}); j("resolver", {"resolver": 2130706433}); j("resolver", {"resolver": True})
j("resolver", {"resolver": "127.0.0.53\u0000"}); j("resolver", {"resolver": "::1\u0000; x"})
j("resolver", {"resolver": {"addr": "::1"}})
j("resolver", '{"resolver": "127.0.0.1", "resolver": "::1"}')
j("release", '{"release": "debian-12", "release": "debian-13"}')
j("release", {"release": 12}); j("release", {"release": ["debian-12"]}); j("release", {"release": True})
j("release", {"release": "debian-12\u0000"}); j("release", {"release": "debian-12\u0000x"})
j("nginx_version", {"nginx_version": ["any"]}); j("nginx_version", {"nginx_version": "any\u0000"})
j("openssl_version", {"openssl_version": ["any"]}); j("openssl_version", {"openssl_version": "any\u0000"})
j("openssl_version", {"openssl_version": True})
j("file_max", {"file_max": 1.5}); j("file_max", {"file_max": [200000]}); j("file_max", {"file_max": True})
j("file_max", {"file_max": 18446744073709551616}); j("file_max", {"file_max": "200000\u0000"})
j("ktls", {"ktls": "yes"}); j("ktls", {"ktls": 1}); j("ktls", {"ktls": [True]})
j("ktls", {"ktls": True, "tls": True, "file_max": "100000"}, accept=True)
# Accepted: null is "not given"; numbers as text and the documented forms.
j("listen", {"listen": None}, accept=True); j("resolver", {"resolver": None}, accept=True)
j("max_body_size", {"max_body_size": "1048576"}, accept=True)
j("listen", {"listen": ["8080"], "tls": True, "bootstrap": True, "resolver": "::1", "ocsp_stapling": True,
             "release": "debian-12", "existing_default_server": True, "max_body_size": "1G",
             "nginx_version": "any", "openssl_version": "any"}, accept=True)
for name in ["cpus", "memory", "VCPU", "Ram", "server_name", "upstream", "tls-cert", "", " vcpu", "vcpu\u0000", "__proto__",
             "constructor", "ssl", "listen_port", "extra"]:
    # Finding F1 (fixed): a key with a control character is shown escaped, as Rust's escape_debug does.
    j(name.replace("\u0000", "\\0"), {name: 1})
for c in cases_flags:
    # Every flag case as a document too (fields with list values as lists).
    args = []
    for a in c["args"]:
        args.extend(a.split("=", 1) if a.startswith("--") and "=" in a else [a])
    doc = {}
    if c in FLAG_ONLY:
        continue
    lists = {"--server-name": "server_names", "--upstream": "upstreams", "--trusted-proxy": "trusted_proxies",
             "--listen": "listen"}
    bools = {"--tls", "--http3", "--ocsp-stapling", "--behind-lb", "--brotli", "--bootstrap",
             "--existing-default-server"}
    i = 0
    ok = True
    while i < len(args):
        a = args[i]
        if a in bools:
            doc[a[2:].replace("-", "_")] = True; i += 1
        elif a in lists:
            doc.setdefault(lists[a], []).append(args[i + 1]); i += 2
        elif a == "--cpus" or (a == "--vcpu" and "vcpu" in doc):
            ok = False; break
        else:
            doc[a[2:].replace("-", "_")] = args[i + 1]; i += 2
    if ok and c["field"] not in ("input",):
        j(c["field"], doc, pending=c.get("pending"), accept=c.get("accept", False))
for h in ["\u0000", "a\u0000b", "/var/www\u0000/x"]:
    j("server_names", {"server_names": [h]}); j("root", {"root": "/x" + h})
    j("upstreams", {"upstreams": ["127.0.0.1:80" + h]}); j("listen", {"listen": "80" + h})
    j("tls_cert", {"tls": True, "tls_cert": "/c" + h, "tls_key": "/k"})

# --- size strings: every bad size as ram and as response_size, in documents --------------
cases_sizes = []
for v in bad_sizes:
    cases_sizes.append({"size": v, "fields": ["ram", "response_size", "max_body_size"]})
for v in ram_out_of_range:
    cases_sizes.append({"size": v, "fields": ["ram"]})
for v in resp_out_of_range:
    cases_sizes.append({"size": v, "fields": ["response_size"]})
for v in body_out_of_range:
    cases_sizes.append({"size": v, "fields": ["max_body_size"]})

# --- URL-state strings (query strings the web page restores its form from) -------------------
cases_url = []
# The web page's share-link reader accepts `on`/`1` for flags and treats a blank value as
# "not given" (no notice); a cross-field error about a parameter the URL did not set drops
# the whole state without a notice (finding W1).
WEB_ACCEPTS = {"behind_lb=on", "ram=", "server_names="}
WEB_PENDING = {}  # W1 fixed: such a link loses only the parameters involved, with notices
# Where the core names a field the link did not set, the page's notice names the link's own
# parameter it dropped (the certificate without its key).
WEB_FIELD = {"tls_cert=%2Fc.pem&tls=true": "tls_cert"}
def u(field, q, accept=False, pending=None):
    case = {"state": q, "field": field}
    if accept:
        # Valid as it stands: the CLI generates an nginx -t-safe tree, the page restores it
        # without a notice.
        case["accept"] = True
    elif q not in WEB_ACCEPTS:
        case["web_field"] = WEB_FIELD.get(q, field)
    if q in WEB_PENDING:
        case["web_pending"] = WEB_PENDING[q]
    if pending:
        case["pending"] = pending
        case["web_pending"] = pending  # the page accepts what core accepts
    cases_url.append(case)
for q, field in [("vcpu=abc&ram=8G", "vcpu"), ("vcpu=0", "vcpu"), ("vcpu=%3B", "vcpu"), ("vcpu=4%3Bram%3D8G", "vcpu"),
                 ("ram=8Q", "ram"), ("ram=%0A8Q", "ram"), ("ram=8G%00", "ram"), ("ram=", "ram"), ("ram=-1G", "ram"),
                 ("workload=evil", "workload"), ("workload=static%0Ax", "workload"), ("tls=maybe", "tls"), ("tls=2", "tls"),
                 ("http3=1", "http3"), ("server_names=a%3Bb", "server_names"), ("server_names=a%7Bb", "server_names"),
                 ("server_names=%23x", "server_names"), ("server_names=x%0Aserver_name%20y", "server_names"),
                 ("server_names=%C3%A4.example", "server_names"), ("server_names=", "server_names"),
                 ("root=%2Fvar%2Fwww%3B", "root"), ("root=relative", "root"), ("root=%2Fa%2F..%2Fb", "root"),
                 ("root=%2Fa%20b", "root"), ("root=%2Fa%00", "root"), ("listen=0", "listen"), ("listen=80%3B", "listen"),
                 ("listen=%5B%3A%3A1%5D", "listen"), ("upstreams=10.0.0.5&workload=proxy", "upstreams"),
                 ("upstreams=unix%3Arel&workload=proxy", "upstreams"), ("upstreams=a%20b%3A80&workload=proxy", "upstreams"),
                 ("trusted_proxies=10.0.0.0%2F33&behind_lb=true", "trusted_proxies"), ("tls_port=0&tls=true", "tls_port"),
                 ("tls_port=80&tls=true", "tls_port"), ("tls_cert=%2Fc.pem&tls=true", "tls_key"),
                 ("tls_profile=old&tls=true", "tls_profile"), ("layout=arch", "layout"), ("lang=xx", "lang"),
                 ("clients=-3", "clients"), ("static_files=lots", "static_files"), ("response_size=1Q", "response_size"),
                 ("nginx_version=2", "nginx_version"), ("openssl_version=1.0.2", "openssl_version"),
                 ("cpus=4", "cpus"), ("vcpu=4&vcpu=x", "vcpu"), ("ram=%ZZ", "ram"), ("vcpu=%", "vcpu"),
                 ("brotli=yes", "brotli"), ("behind_lb=on", "behind_lb"), ("ocsp_stapling=true", "ocsp_stapling")]:
    u(field, q)

# The new inputs. The page joins a list with commas (`listen=80,8080`) and splits on commas
# and white space; the CLI path reads one parameter as one entry.
for q, field in [("listen=80%2C%2A%3A80", "listen"), ("listen=8080%2C8080", "listen"), ("listen=443", "listen"),
                 ("listen=80%0Alisten%2081", "listen"), ("listen=80%3B%20include%20x", "listen"),
                 ("listen=%5Bfe80%3A%3A1%25eth0%5D%3A80", "listen"), ("listen=%2480", "listen"),
                 ("listen=8443&tls=true&tls_port=8443", "tls_port"),
                 ("max_body_size=0", "max_body_size"), ("max_body_size=1Q", "max_body_size"),
                 ("max_body_size=65G", "max_body_size"), ("max_body_size=1M%3B", "max_body_size"),
                 ("max_body_size=1M%00", "max_body_size"),
                 ("bootstrap=true", "bootstrap"), ("bootstrap=maybe&tls=true", "bootstrap"),
                 ("existing_default_server=yes", "existing_default_server"),
                 ("resolver=fe80%3A%3A1%25eth0", "resolver"), ("resolver=%5Bfe80%3A%3A1%25eth0%5D", "resolver"),
                 ("resolver=127.0.0.1%3A53", "resolver"), ("resolver=127.0.0.1%3B", "resolver"),
                 ("resolver=dns.example", "resolver"), ("resolver=%0A127.0.0.1%0A%23", "resolver"),
                 ("release=debian-14", "release"), ("release=debian-12%3B", "release"), ("release=%24release", "release"),
                 ("nginx_version=any%3B", "nginx_version"), ("nginx_version=anyx", "nginx_version"),
                 ("openssl_version=any%7B", "openssl_version"), ("openssl_version=%24any", "openssl_version")]:
    u(field, q)
# F10 and F12 (fixed) through the page: one socket twice (the page splits at the comma; the
# CLI path reads one entry, invalid as such) and an address no machine binds.
cases_url.append({"state": "listen=80%2C0.0.0.0%3A80", "field": "listen", "web_field": "listen"})
u("listen", "listen=%5B%3A%3Affff%3A127.0.0.1%5D%3A8080")
for q, field in [("listen=8080&max_body_size=1M&release=debian-12", "listen"),
                 ("existing_default_server=true&nginx_version=any&openssl_version=any", "existing_default_server"),
                 ("tls=true&bootstrap=true&listen=8080", "bootstrap"),
                 ("tls=true&ocsp_stapling=true&resolver=%3A%3A1", "resolver"),
                 ("tls=true&ktls=true", "ktls")]:
    u(field, q, accept=True)
for q in ["ktls=yes", "ktls=2", "ktls=%00"]:
    u("ktls", q)

def write(name, rows):
    rows = sorted({json.dumps(r, ensure_ascii=False, sort_keys=True) for r in rows})
    (HERE / name).write_text("".join(r + "\n" for r in rows), encoding="utf-8")
    return len(rows)

n = sum(write(*x) for x in [("flags.jsonl", cases_flags), ("json.jsonl", cases_json),
                            ("sizes.jsonl", cases_sizes), ("url.jsonl", cases_url)])
print(f"{n} cases")
