import stripe


def test_api_version_is_set():
    assert stripe.api_version
