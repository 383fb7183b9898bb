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

def flag(field):
    return "--" + field.replace("_", "-")

cases_flags = []
def f(field, *args):
    # A value that starts with '-' is written --flag=value, or the parser reads it as a flag.
    out = []
    for a in args:
        if out and out[-1].startswith("--") and "=" not in out[-1] and a.startswith("-") and a != "--" and not a.startswith("--"):
            out[-1] = out[-1] + "=" + a
        else:
            out.append(a)
    cases_flags.append({"args": out, "field": field})

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

# --- JSON documents ----------------------------------------------------------------------
cases_json = []
def j(field, doc, pending=None):
    case = {"doc": doc if isinstance(doc, str) else json.dumps(doc, ensure_ascii=False), "field": field}
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
    lists = {"--server-name": "server_names", "--upstream": "upstreams", "--trusted-proxy": "trusted_proxies"}
    bools = {"--tls", "--http3", "--ocsp-stapling", "--behind-lb", "--brotli"}
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
        j(c["field"], doc)
for h in ["\u0000", "a\u0000b", "/var/www\u0000/x"]:
    j("server_names", {"server_names": [h]}); j("root", {"root": "/x" + h})
    j("upstreams", {"upstreams": ["127.0.0.1:80" + h]}); j("listen", {"listen": "80" + h})
    j("tls_cert", {"tls": True, "tls_cert": "/c" + h, "tls_key": "/k"})

# --- size strings: every bad size as ram and as response_size, in documents --------------
cases_sizes = []
for v in bad_sizes:
    cases_sizes.append({"size": v, "fields": ["ram", "response_size"]})
for v in ram_out_of_range:
    cases_sizes.append({"size": v, "fields": ["ram"]})
for v in resp_out_of_range:
    cases_sizes.append({"size": v, "fields": ["response_size"]})

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
def u(field, q):
    case = {"state": q, "field": field}
    if q not in WEB_ACCEPTS:
        case["web_field"] = WEB_FIELD.get(q, field)
    if q in WEB_PENDING:
        case["web_pending"] = WEB_PENDING[q]
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

def write(name, rows):
    rows = sorted({json.dumps(r, ensure_ascii=False, sort_keys=True) for r in rows})
    (HERE / name).write_text("".join(r + "\n" for r in rows), encoding="utf-8")
    return len(rows)

n = sum(write(*x) for x in [("flags.jsonl", cases_flags), ("json.jsonl", cases_json),
                            ("sizes.jsonl", cases_sizes), ("url.jsonl", cases_url)])
print(f"{n} cases")
