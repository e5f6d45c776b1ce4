"""The links and QR codes shown to players never come from the request's Host header, and the session cookie."""

from __future__ import annotations

import html
import http.client
import re
import threading
import time
from pathlib import Path
from typing import Any

import itsdangerous
import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.web import csrf_token, record, start_table
from waitress.server import create_server

from scorer.web import links

from scorer import create_app, serve
from scorer.web.links import check_base_url, own_address, server_base_url
from scorer.web.common import qr_svg

EVIL = {"Host": "evil.example", "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https"}


def shown_links(page: str) -> list[str]:
    return re.findall(r'<figcaption><a href="([^"]+)">', page)


def assert_links(page: str, base: str, token: str) -> None:
    link, watch = shown_links(page)
    assert link == f"{base}/t/{token}"
    assert watch.startswith(f"{base}/s/")
    assert "evil" not in page
    # each QR code is the code of the link beside it, not of anything the client sent
    assert str(qr_svg(link)) in page and str(qr_svg(watch)) in page


def run_until_closed(server: Any) -> None:
    try:
        server.run()
    except OSError:  # the test closed the server under its select()
        pass


def test_a_hostile_host_header_never_reaches_the_links_or_their_qr_codes(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    page = client.get(f"/t/{token}/join", headers=EVIL).get_data(as_text=True)
    assert_links(page, "http://localhost", token)  # the test server's own name (SERVER_NAME)


def test_the_configured_base_url_wins(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    app.config["BASE_URL"] = "https://scorer.example.org"
    page = client.get(f"/t/{token}/join", headers=EVIL).get_data(as_text=True)
    assert_links(page, "https://scorer.example.org", token)


def test_a_base_url_with_a_path_keeps_it(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    app.config["BASE_URL"] = "https://club.example.org/quadrille"
    page = client.get(f"/t/{token}/join", headers=EVIL).get_data(as_text=True)
    assert_links(page, "https://club.example.org/quadrille", token)


def test_without_a_base_url_the_links_use_the_servers_own_address(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    page = client.get(f"/t/{token}/join", headers=EVIL,
                      environ_overrides={"SERVER_NAME": "192.168.1.20", "SERVER_PORT": "8080"}).get_data(as_text=True)
    assert_links(page, "http://192.168.1.20:8080", token)


def test_a_server_bound_to_every_interface_names_this_machines_address(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(links, "reachable_host", lambda: "10.1.2.3")
    token = start_table(client)
    for name in ("0.0.0.0", "waitress.invalid"):
        page = client.get(f"/t/{token}/join", headers=EVIL,
                          environ_overrides={"SERVER_NAME": name, "SERVER_PORT": "8080"}).get_data(as_text=True)
        assert_links(page, "http://10.1.2.3:8080", token)


def test_a_server_that_names_no_address_links_to_the_address_the_phone_used_only_if_it_is_this_machines(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(links, "reachable_host", lambda: "10.1.2.3")
    token = start_table(client)
    unnamed = {"SERVER_NAME": "waitress.invalid", "SERVER_PORT": "8080"}
    page = client.get(f"/t/{token}/join", headers={"Host": "127.0.0.1:8080"}, environ_overrides=unnamed)
    assert_links(page.get_data(as_text=True), "http://127.0.0.1:8080", token)
    for host in ("evil.example:8080", "8.8.8.8:8080", "127.0.0.1:9999", "0.0.0.0:8080", "127.0.0.1:8080@evil.example"):
        page = client.get(f"/t/{token}/join", headers={"Host": host}, environ_overrides=unnamed)
        assert_links(page.get_data(as_text=True), "http://10.1.2.3:8080", token)


@pytest.mark.parametrize("host, scheme, port, mine", [
    ("127.0.0.1:8080", "http", "8080", "127.0.0.1"),
    ("127.0.0.1", "http", "80", "127.0.0.1"),
    ("127.0.0.1", "https", "443", "127.0.0.1"),
    ("127.0.0.1", "http", "8080", None),  # another port
    ("127.0.0.1:8080/x", "http", "8080", None),
    ("user@127.0.0.1:8080", "http", "8080", None),
    ("evil.example:8080", "http", "8080", None),
    ("localhost:8080", "http", "8080", None),  # a name, whatever it resolves to
    ("192.0.2.99:8080", "http", "8080", None),  # not this machine's
    ("0.0.0.0:8080", "http", "8080", None),
    ("224.0.0.1:8080", "http", "8080", None),
    ("", "http", "8080", None),
])
def test_only_an_address_of_this_machine_on_the_servers_port_is_its_own(host: str, scheme: str, port: str, mine: str | None) -> None:
    assert own_address(host, scheme, port) == mine


@pytest.mark.parametrize("environ, base", [
    ({"SERVER_NAME": "10.0.0.5", "SERVER_PORT": "80", "wsgi.url_scheme": "http"}, "http://10.0.0.5"),
    ({"SERVER_NAME": "10.0.0.5", "SERVER_PORT": "443", "wsgi.url_scheme": "https"}, "https://10.0.0.5"),
    ({"SERVER_NAME": "10.0.0.5", "SERVER_PORT": "8443", "wsgi.url_scheme": "https"}, "https://10.0.0.5:8443"),
    ({"SERVER_NAME": "fe80::1", "SERVER_PORT": "8080", "wsgi.url_scheme": "http"}, "http://[fe80::1]:8080"),
    ({"SERVER_NAME": "10.0.0.5", "SERVER_PORT": "80", "wsgi.url_scheme": "javascript"}, "http://10.0.0.5"),
])
def test_the_servers_own_address(environ: dict[str, str], base: str) -> None:
    assert server_base_url(environ) == base


@pytest.mark.parametrize("bad", ["javascript:alert(1)", "http://", "ftp://example.org", "scorer.example.org",
                                 "http://example.org/?next=evil", "http://user:pw@example.org", "http://example.org:port"])
def test_a_bad_base_url_is_refused_when_the_app_starts(tmp_path: Path, bad: str) -> None:
    with pytest.raises(ValueError, match="BASE_URL"):
        check_base_url(bad)
    with pytest.raises(ValueError, match="BASE_URL"):
        create_app({"TESTING": True, "DATABASE": str(tmp_path / "t.sqlite"), "SECRET_KEY": "t", "BASE_URL": bad})


def test_the_base_url_comes_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCORER_BASE_URL", "https://scorer.example.org/")
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "t.sqlite"), "SECRET_KEY": "t"})
    assert app.config["BASE_URL"] == "https://scorer.example.org"
    assert app.config["SESSION_COOKIE_SECURE"] is True


def test_under_waitress_the_links_use_the_address_it_serves(app: Flask, client: FlaskClient) -> None:
    """waitress's own SERVER_NAME is "waitress.invalid" unless told: serve passes the address it binds."""
    token = start_table(client)
    server_name, _ = serve.announce("127.0.0.1", 0, "")
    server = create_server(app, host="127.0.0.1", port=0, server_name=server_name)
    port = server.effective_port  # type: ignore[union-attr]
    threading.Thread(target=run_until_closed, args=(server,), daemon=True).start()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", f"/t/{token}/join", headers={"Host": "evil.example"})
        page = conn.getresponse().read().decode()
    finally:
        server.close()
    assert_links(page, f"http://127.0.0.1:{port}", token)


def test_under_waitress_without_a_server_name_a_hostile_host_is_never_taken(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(links, "reachable_host", lambda: "10.1.2.3")
    token = start_table(client)
    server = create_server(app, host="127.0.0.1", port=0)  # SERVER_NAME: waitress.invalid
    port = server.effective_port  # type: ignore[union-attr]
    threading.Thread(target=run_until_closed, args=(server,), daemon=True).start()
    pages = {}
    try:
        for host in ("evil.example", f"127.0.0.1:{port}"):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.request("GET", f"/t/{token}/join", headers={"Host": host})
            pages[host] = conn.getresponse().read().decode()
            conn.close()
    finally:
        server.close()
    assert_links(pages["evil.example"], f"http://10.1.2.3:{port}", token)
    assert_links(pages[f"127.0.0.1:{port}"], f"http://127.0.0.1:{port}", token)


def test_the_serve_command_says_which_address_the_links_use(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(links, "reachable_host", lambda: "192.168.1.20")
    name, lines = serve.announce("0.0.0.0", 8080, "")
    assert name == "192.168.1.20" and len(lines) == 2
    assert "http://192.168.1.20:8080/" in lines[1] and "--base-url http://ADDRESS:8080" in lines[1]
    name, lines = serve.announce("0.0.0.0", 8080, "https://scorer.example.org")
    assert lines[1:] == ["Links and QR codes for the players: https://scorer.example.org/..."]


LOCAL_ONLY = ("To let the other phones join, stop this server and serve the table on the local network: "
              "bash scripts/serve-lan in the app's folder, or scorer serve from an installed scorer. The links then "
              "carry this computer's address on the network (--base-url http://ADDRESS:8080 gives another); the "
              "tables are kept.")


# (the address served on, the base URL, the network's address of this machine) -> the lines after the first
ANNOUNCED = [
    ("127.0.0.1", "", "192.168.1.20",
     ["Links and QR codes for the players: http://127.0.0.1:5000/... (this server's own address).",
      "These links open only on this computer: no other phone can reach 127.0.0.1.", LOCAL_ONLY]),
    ("0.0.0.0", "", "127.0.0.1",  # a machine on no network
     ["Links and QR codes for the players: http://127.0.0.1:5000/... (this server's own address on the network).",
      "These links open only on this computer: no other phone can reach 127.0.0.1.", LOCAL_ONLY]),
    ("0.0.0.0", "http://localhost:5000", "192.168.1.20",
     ["Links and QR codes for the players: http://localhost:5000/...",
      "These links open only on this computer: no other phone can reach localhost.", LOCAL_ONLY]),
    ("::1", "", "192.168.1.20",
     ["Links and QR codes for the players: http://[::1]:5000/... (this server's own address).",
      "These links open only on this computer: no other phone can reach ::1.", LOCAL_ONLY]),
    ("192.168.1.20", "", "192.168.1.20",
     ["Links and QR codes for the players: http://192.168.1.20:5000/... (this server's own address). If the phones "
      "cannot open it, restart with --base-url http://ADDRESS:5000 (or set SCORER_BASE_URL), ADDRESS being what the "
      "phones reach this machine by."]),
    ("127.0.0.1", "https://scorer.example.org", "192.168.1.20",  # behind a reverse proxy
     ["Links and QR codes for the players: https://scorer.example.org/..."]),
]


@pytest.mark.parametrize(("host", "base", "network", "said"), ANNOUNCED)
def test_a_server_says_at_start_when_only_this_computer_opens_its_links(
        app: Flask, monkeypatch: pytest.MonkeyPatch, host: str, base: str, network: str, said: list[str]) -> None:
    """What `scorer serve` (and scripts/serve-lan) prints after its first line, and `flask --app scorer links`
    (scripts/serve, before Flask's development server starts) prints whole."""
    monkeypatch.setattr(links, "reachable_host", lambda: network)
    assert serve.announce(host, 5000, base)[1][1:] == said
    app.config["BASE_URL"] = base
    printed = app.test_cli_runner().invoke(args=["links", "--host", host, "--port", "5000"])
    assert printed.exit_code == 0 and printed.output == "\n".join(said) + "\n"


@pytest.mark.parametrize(("url", "only_here"), [
    ("http://127.0.0.1:5000", True), ("http://127.3.2.1", True), ("http://localhost:5000", True),
    ("http://LOCALHOST.", True), ("http://scorer.localhost:8080", True), ("http://[::1]:8080", True),
    ("http://192.168.1.20:8080", False), ("https://scorer.example.org", False), ("http://10.0.0.1", False),
    ("http://localhost.example.org", False), ("http://[2001:db8::1]:8080", False), ("http://0.0.0.0:8080", False),
])
def test_links_open_only_here_when_their_host_is_a_loopback_one(url: str, only_here: bool) -> None:
    assert links.opens_only_here(url) is only_here
    assert bool(links.local_only_notice(url)) is only_here


def local_only_shown(page: str) -> list[str]:
    notice = re.search(r'<div class="flash local-only" role="note">(.*?)</div>', page, re.S)
    return [html.unescape(p) for p in re.findall(r"<p>(.*?)</p>", notice.group(1))] if notice else []


@pytest.mark.parametrize(("base", "shown"), [
    ("http://127.0.0.1:5000", ["These links open only on this computer: no other phone can reach <code>127.0.0.1</code>.",
                               LOCAL_ONLY.replace("bash scripts/serve-lan", "<code>bash scripts/serve-lan</code>")
                               .replace("scorer serve from", "<code>scorer serve</code> from")
                               .replace("--base-url http://ADDRESS:8080", "<code>--base-url http://ADDRESS:8080</code>")]),
    ("http://localhost:5000", ["These links open only on this computer: no other phone can reach <code>localhost</code>."]),
    ("http://192.168.1.20:8080", []),
    ("https://scorer.example.org", []),
])
def test_the_share_page_says_when_its_links_open_only_on_this_computer(
        tmp_path: Path, base: str, shown: list[str]) -> None:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "t.sqlite"), "SECRET_KEY": "t", "BASE_URL": base})
    client = app.test_client()
    token = start_table(client)
    page = client.get(f"/t/{token}/join").get_data(as_text=True)
    assert shown_links(page)[0] == f"{base}/t/{token}"
    said = local_only_shown(page)
    assert said[:len(shown)] == shown and len(said) == (2 if shown else 0)


def test_the_share_page_says_it_in_french(client: FlaskClient) -> None:
    token = start_table(client)  # the test client's own address: http://localhost
    page = client.get(f"/t/{token}/join", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert local_only_shown(page) == [
        "Ces liens ne s'ouvrent que sur cet ordinateur\u00a0: aucun autre téléphone ne peut joindre <code>localhost</code>.",
        "Pour que les autres téléphones puissent rejoindre la table, arrêtez ce serveur et servez la table sur le "
        "réseau local\u00a0: <code>bash scripts/serve-lan</code> dans le dossier de l'application, ou "
        "<code>scorer serve</code> depuis un scorer installé. Les liens portent alors l'adresse de cet ordinateur "
        "sur le réseau (<code>--base-url http://ADRESSE:8080</code> en donne une autre)\u00a0; les tables sont conservées."]


def first_set_cookie(client: FlaskClient) -> str:
    response = client.get("/new")
    cookie = response.headers.get("Set-Cookie")
    assert cookie and cookie.startswith("session="), response.headers
    return cookie


def test_the_session_cookie_is_same_site_lax_and_http_only(app: Flask, client: FlaskClient) -> None:
    cookie = first_set_cookie(client)
    assert "SameSite=Lax" in cookie and "HttpOnly" in cookie and "Secure" not in cookie


def test_the_session_cookie_is_secure_when_the_base_url_is_https(tmp_path: Path) -> None:
    config = {"TESTING": True, "DATABASE": str(tmp_path / "t.sqlite"), "SECRET_KEY": "t"}
    cookie = first_set_cookie(create_app({**config, "BASE_URL": "https://scorer.example.org"}).test_client())
    assert "Secure" in cookie and "SameSite=Lax" in cookie
    cookie = first_set_cookie(create_app({**config, "BASE_URL": "https://x.example", "SESSION_COOKIE_SECURE": False}).test_client())
    assert "Secure" not in cookie
    cookie = first_set_cookie(create_app({**config, "SESSION_COOKIE_SECURE": True}).test_client())
    assert "Secure" in cookie


def test_a_form_left_open_for_hours_still_posts(app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The CSRF token has no time limit: a deal form may sit open through a whole deal (it is bound to the session)."""
    assert app.config["WTF_CSRF_TIME_LIMIT"] is None
    hours_ago = int(time.time()) - 5 * 3600
    monkeypatch.setattr(itsdangerous.TimestampSigner, "get_timestamp", lambda self: hours_ago)
    token = csrf_token(client, "/new")
    monkeypatch.undo()
    response = client.post("/new", data={"player_1": "Ann", "player_2": "Bea", "player_3": "Cat", "player_4": "Dan",
                                         "first_dealer": "1", "profile": "quadrille", "deals_agreed": "8", "csrf_token": token})
    assert response.status_code == 302


def test_the_share_page_after_the_last_deal_opens_the_table_not_a_deal_past_the_end(client: FlaskClient) -> None:
    """The Share page's button goes to the next deal while the evening goes on; once the agreed deals are
    played there is no next deal: it opens the table (which says the evening is over)."""
    token = start_table(client, deals_agreed="4")
    for number in range(1, 5):
        assert f"Go to deal {number}" in client.get(f"/t/{token}/join").get_data(as_text=True)
        record(client, token, "solo", number, {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6"})
    page = client.get(f"/t/{token}/join").get_data(as_text=True)
    assert "Go to deal 5" not in page and "Open the table" in page
