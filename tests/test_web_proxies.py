"""Behind a reverse proxy (issue 57): the phone's address, the scheme and the host name are read from
the forwarded headers only when the request comes from a proxy the host named (TRUSTED_PROXIES); the
"this phone" page says what the server sees, and hands out the household's certificate."""

from __future__ import annotations

from support import make_app, words

FORWARDED = {
    "X-Forwarded-For": "192.168.1.31",
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": "scores.home.arpa",
}


def test_a_trusted_proxy_s_headers_give_the_phone_s_address_scheme_and_name(tmp_path):
    app = make_app(tmp_path, TRUSTED_PROXIES=["10.0.0.5"], TRUSTED_HOSTS=["scores.home.arpa"])
    page = app.test_client().get("/help/this-phone", headers=FORWARDED, environ_base={"REMOTE_ADDR": "10.0.0.5"})
    said = words(page.text)
    assert "This phone reaches Scorekeeper at https://scores.home.arpa/; the server sees it as 192.168.1.31." in said
    assert "The connection is https" in said


def test_the_same_headers_from_anyone_else_are_ignored(tmp_path):
    """A phone cannot claim another's address, or https, by sending the headers itself."""
    app = make_app(tmp_path, TRUSTED_PROXIES=["10.0.0.5"], TRUSTED_HOSTS=["scores.home.arpa"])
    page = app.test_client().get("/help/this-phone", headers=FORWARDED, environ_base={"REMOTE_ADDR": "192.168.1.66"})
    said = words(page.text)
    assert "This phone reaches Scorekeeper at http://localhost/; the server sees it as 192.168.1.66." in said
    assert "The connection is plain http" in said and "Trust this phone" not in said


def test_no_proxy_is_trusted_unless_named(tmp_path):
    page = (
        make_app(tmp_path)
        .test_client()
        .get("/help/this-phone", headers=FORWARDED, environ_base={"REMOTE_ADDR": "127.0.0.1"})
    )
    assert "the server sees it as 127.0.0.1." in words(page.text)


def test_the_household_s_certificate_is_handed_to_a_phone_where_the_host_set_one(tmp_path):
    certificate = tmp_path / "root.crt"
    certificate.write_text("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n")
    client = make_app(tmp_path / "with", TRUST_CERTIFICATE=str(certificate)).test_client()
    page = client.get("/help/this-phone").text
    assert "Trust this phone" in page and "Certificate Trust Settings" in page
    download = client.get("/help/this-phone/scorekeeper-ca.crt")
    assert download.status_code == 200 and download.mimetype == "application/x-x509-ca-cert"
    assert download.data == certificate.read_bytes()
    without = make_app(tmp_path / "without").test_client()
    assert without.get("/help/this-phone/scorekeeper-ca.crt").status_code == 404


def test_the_version_is_on_the_help_pages_and_the_command(tmp_path):
    from click.testing import CliRunner

    from scorekeeper import __version__
    from scorekeeper.console import main

    assert f"Scorekeeper {__version__}" in make_app(tmp_path).test_client().get("/help/guide").text
    assert CliRunner().invoke(main, ["--version"]).output == f"Scorekeeper {__version__}\n"
