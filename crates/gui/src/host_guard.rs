//! Who may use the server: requests must name it by an address it serves
//! (the `Host` header), and state-changing requests that come from a page
//! must come from its own page (the `Origin` header, one of them).
//!
//! Why: the server has no login and drives an engine. A page on another
//! site can make the browser send requests to `127.0.0.1`; the browser's
//! same-origin rules stop it from reading the answers, but not from sending
//! a POST, and DNS rebinding (a name of the attacker's that starts
//! resolving to 127.0.0.1) would let it read them too. Both carry a foreign
//! name: rebinding in `Host`, a cross-site request in `Origin`. Requests
//! without `Origin` (curl, scripts) are not from a page and are let through.
//!
//! A server that other machines can reach (`--host` not a loopback address)
//! also needs its token, made at start and printed once in the page's URL
//! (`/?token=...`): a request carries it in the `X-Kestrel-Token` header, in
//! the `kestrel_token` cookie (which the page gets when it is opened with
//! the token in its URL, so that the page's own requests carry it), or in
//! the `token` query parameter. Without it the answer is 401.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use axum::extract::{Request, State};
use axum::http::{header, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

use crate::error::ApiError;

/// The names the server answers to, with its port.
#[derive(Clone, Debug)]
pub struct Access {
    /// Allowed `host:port` authorities, lower case, IPv6 in brackets.
    authorities: Vec<String>,
    /// Listening on every interface (`--host 0.0.0.0` or `::`): any IP
    /// address with the port is allowed, as the machine's addresses are not
    /// known in advance; a name still has to be one of `authorities`
    /// (an IP literal cannot be rebound, a name can).
    any_ip: bool,
    /// The port served.
    port: u16,
    /// The URL to name in messages.
    url: String,
    /// The token every request must carry, when one is needed.
    token: Option<String>,
}

/// The header that carries the token.
pub const TOKEN_HEADER: &str = "x-kestrel-token";
/// The cookie (and query parameter `token`) that carries the token.
pub const TOKEN_COOKIE: &str = "kestrel_token";

/// A new random token: 128 bits from the system's generator, in hex.
pub fn new_token() -> String {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::from_os_rng();
    format!("{:032x}", rng.random::<u128>())
}

/// Whether two texts are equal, in a time that does not depend on where
/// they first differ (a token guessed byte by byte learns nothing).
fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

/// The loopback names always allowed.
const LOOPBACK: [&str; 3] = ["127.0.0.1", "localhost", "[::1]"];

impl Access {
    /// Access for a server listening on `host` (as given to `--host`) at
    /// `port` (the port actually bound, not 0).
    pub fn new(host: &str, port: u16) -> Access {
        let host = host.trim().to_ascii_lowercase();
        let ip = host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<IpAddr>()
            .ok();
        let any_ip = ip.is_some_and(|ip| ip.is_unspecified());
        let mut names: Vec<String> = LOOPBACK
            .iter()
            .map(std::string::ToString::to_string)
            .collect();
        let own = match ip {
            Some(IpAddr::V6(v6)) => format!("[{v6}]"),
            Some(IpAddr::V4(v4)) => v4.to_string(),
            None => host.clone(),
        };
        if !any_ip && !own.is_empty() && !names.contains(&own) {
            names.push(own.clone());
        }
        let mut authorities: Vec<String> = names.iter().map(|n| format!("{n}:{port}")).collect();
        if port == 80 {
            // A browser leaves the default port out of Host and Origin.
            authorities.extend(names.iter().cloned());
        }
        let shown = if any_ip || ip.is_some_and(|ip| ip.is_loopback()) {
            "127.0.0.1".to_string()
        } else {
            own
        };
        Access {
            authorities,
            any_ip,
            port,
            url: format!("http://{shown}:{port}/"),
            token: None,
        }
    }

    /// The same access, requiring `token` on every request (see the
    /// module's comment).
    pub fn with_token(mut self, token: String) -> Access {
        self.token = Some(token);
        self
    }

    /// Whether a request with these `X-Kestrel-Token` header, `Cookie`
    /// header and query string carries the token (always, when none is
    /// needed); `Some(true)` when it came in the query, so that the answer
    /// sets the cookie.
    fn token_check(
        &self,
        header: Option<&str>,
        cookies: &[&str],
        query: Option<&str>,
    ) -> Option<bool> {
        let Some(token) = &self.token else {
            return Some(false);
        };
        let in_cookie = cookies
            .iter()
            .flat_map(|c| c.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .any(|(name, value)| name == TOKEN_COOKIE && same_secret(value, token));
        if header.is_some_and(|h| same_secret(h.trim(), token)) || in_cookie {
            return Some(false);
        }
        let in_query = query
            .into_iter()
            .flat_map(|q| q.split('&'))
            .filter_map(|pair| pair.split_once('='))
            .any(|(name, value)| name == "token" && same_secret(value, token));
        in_query.then_some(true)
    }

    /// Whether a `Host` header value names this server.
    pub fn allows_host(&self, host: &str) -> bool {
        let host = host.trim().to_ascii_lowercase();
        if self.authorities.contains(&host) {
            return true;
        }
        self.any_ip && self.is_ip_with_port(&host)
    }

    /// Whether an `Origin` header value is this server's own page.
    pub fn allows_origin(&self, origin: &str) -> bool {
        origin
            .trim()
            .strip_prefix("http://")
            .is_some_and(|authority| self.allows_host(authority))
    }

    /// `1.2.3.4:PORT` or `[::1]:PORT` with the served port.
    fn is_ip_with_port(&self, authority: &str) -> bool {
        let Some((ip, port)) = authority.rsplit_once(':') else {
            return false;
        };
        let port_ok = port.parse::<u16>().is_ok_and(|p| p == self.port);
        let ip_ok = match ip.strip_prefix('[').and_then(|i| i.strip_suffix(']')) {
            Some(v6) => v6.parse::<Ipv6Addr>().is_ok(),
            None => ip.parse::<Ipv4Addr>().is_ok(),
        };
        port_ok && ip_ok
    }

    /// Why a request is refused, or `None` when it may go on.
    pub fn check(
        &self,
        method: &Method,
        host: Option<&str>,
        origin: Option<&str>,
    ) -> Option<ApiError> {
        let Some(host) = host else {
            return Some(ApiError::bad_request(
                "the request has no Host header; this server answers only to its own address",
            ));
        };
        if !self.allows_host(host) {
            return Some(ApiError::forbidden(format!(
                "this server answers only to {} (and its other loopback names), not to Host '{host}'; \
                 start kestrel gui with --host to serve another address",
                self.url
            )));
        }
        match origin {
            Some(origin) if changes_state(method) && !self.allows_origin(origin) => {
                Some(ApiError::forbidden(format!(
                    "requests that change a game are taken only from the page at {}, not from '{origin}'",
                    self.url
                )))
            }
            _ => None,
        }
    }
}

/// Whether a request of this method may change a game (and so must come
/// from the server's own page when it comes from a page at all).
fn changes_state(method: &Method) -> bool {
    !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// Middleware: refuses requests that [`Access::check`] refuses, with the
/// API's JSON error.
pub async fn guard(State(access): State<Arc<Access>>, req: Request, next: Next) -> Response {
    let refusal = {
        let text = |name: header::HeaderName| {
            req.headers()
                .get(name)
                .map(|v| v.to_str().unwrap_or("(not text)").to_string())
        };
        // An absolute-form request line carries the authority in the URI
        // too: both must name this server, and there is one Host at most.
        let hosts = req.headers().get_all(header::HOST).iter().count();
        let origins = req.headers().get_all(header::ORIGIN).iter().count();
        let authority = req.uri().authority().map(std::string::ToString::to_string);
        let host = text(header::HOST).or_else(|| authority.clone());
        let origin = text(header::ORIGIN);
        if hosts > 1 {
            Some(ApiError::bad_request(
                "the request has more than one Host header; send one",
            ))
        } else if origins > 1 && changes_state(req.method()) {
            // A browser sends one Origin; reading only the first of two
            // would let the second through unread.
            Some(ApiError::forbidden(format!(
                "requests that change a game are taken only from the page at {}, with one \
                 Origin header, not {origins}",
                access.url
            )))
        } else {
            authority
                .and_then(|a| access.check(req.method(), Some(&a), None))
                .or_else(|| access.check(req.method(), host.as_deref(), origin.as_deref()))
        }
    };
    if let Some(refusal) = refusal {
        return refusal.into_response();
    }
    let token = {
        let header = req
            .headers()
            .get(TOKEN_HEADER)
            .and_then(|v| v.to_str().ok());
        let cookies: Vec<&str> = req
            .headers()
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .collect();
        access.token_check(header, &cookies, req.uri().query())
    };
    // The checks borrow the request, which is not Sync: they end before the await.
    match token {
        None => ApiError::unauthorized(format!(
            "this server can be reached from other machines, so it needs its token: open the \
             URL that kestrel gui printed when it started (it ends in ?token=...), or send the \
             token in the {TOKEN_HEADER} header"
        ))
        .into_response(),
        Some(false) => next.run(req).await,
        Some(true) => {
            let mut response = next.run(req).await;
            let token = access.token.as_deref().unwrap_or_default();
            if let Ok(cookie) = header::HeaderValue::from_str(&format!(
                "{TOKEN_COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict"
            )) {
                response.headers_mut().append(header::SET_COOKIE, cookie);
            }
            response
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_comes_in_a_header_a_cookie_or_the_query() {
        let open = Access::new("127.0.0.1", 8080);
        assert_eq!(
            open.token_check(None, &[], None),
            Some(false),
            "no token needed"
        );
        let a = Access::new("0.0.0.0", 8080).with_token("s3cret".into());
        assert_eq!(a.token_check(Some("s3cret"), &[], None), Some(false));
        assert_eq!(
            a.token_check(None, &["theme=dark; kestrel_token=s3cret"], None),
            Some(false)
        );
        assert_eq!(
            a.token_check(None, &[], Some("game=1&token=s3cret")),
            Some(true)
        );
        for (header, cookie, query) in [
            (None, "", None),
            (Some("s3cre"), "", None),
            (Some("s3cretx"), "kestrel_token=nope", Some("token=")),
            (None, "other_token=s3cret", Some("xtoken=s3cret")),
        ] {
            assert_eq!(
                a.token_check(header, &[cookie], query),
                None,
                "{header:?} {cookie} {query:?}"
            );
        }
        let (t1, t2) = (new_token(), new_token());
        assert!(t1.len() == 32 && t1 != t2);
    }

    #[test]
    fn loopback_names_with_the_port_only() {
        let a = Access::new("127.0.0.1", 8080);
        for ok in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST:8080",
            "[::1]:8080",
        ] {
            assert!(a.allows_host(ok), "{ok}");
        }
        for bad in [
            "evil.example.com",
            "evil.example.com:8080",
            "127.0.0.1",
            "127.0.0.1:8081",
            "localhost.evil.com:8080",
            "192.168.1.2:8080",
            "",
        ] {
            assert!(!a.allows_host(bad), "{bad}");
        }
    }

    #[test]
    fn port_80_may_be_left_out() {
        let a = Access::new("localhost", 80);
        assert!(a.allows_host("localhost") && a.allows_host("127.0.0.1:80"));
        assert!(!a.allows_host("example.com"));
    }

    #[test]
    fn host_option_widens_to_its_own_address() {
        let a = Access::new("192.168.1.2", 9000);
        assert!(a.allows_host("192.168.1.2:9000") && a.allows_host("localhost:9000"));
        assert!(!a.allows_host("192.168.1.3:9000"));
        let named = Access::new("Box.lan", 9000);
        assert!(named.allows_host("box.lan:9000"));
        let all = Access::new("0.0.0.0", 9000);
        assert!(all.allows_host("10.0.0.7:9000") && all.allows_host("[fe80::1]:9000"));
        assert!(!all.allows_host("evil.example.com:9000") && !all.allows_host("10.0.0.7:9001"));
    }

    #[test]
    fn origin_is_checked_on_state_changing_requests_only() {
        let a = Access::new("127.0.0.1", 8080);
        let host = Some("127.0.0.1:8080");
        assert!(a
            .check(&Method::POST, host, Some("http://127.0.0.1:8080"))
            .is_none());
        assert!(a
            .check(&Method::POST, host, Some("http://localhost:8080"))
            .is_none());
        assert!(
            a.check(&Method::POST, host, None).is_none(),
            "scripts send no Origin"
        );
        for bad in [
            "http://evil.example.com",
            "null",
            "https://127.0.0.1:8080",
            "http://127.0.0.1:9999",
        ] {
            let refusal = a.check(&Method::POST, host, Some(bad)).expect(bad);
            assert_eq!(refusal.status, axum::http::StatusCode::FORBIDDEN);
        }
        assert!(a
            .check(&Method::GET, host, Some("http://evil.example.com"))
            .is_none());
        assert!(a.check(&Method::GET, None, None).is_some());
    }
}
