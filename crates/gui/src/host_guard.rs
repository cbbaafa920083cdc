//! Who may use the server: requests must name it by an address it serves
//! (the `Host` header), and state-changing requests that come from a page
//! must come from its own page (the `Origin` header).
//!
//! Why: the server has no login and drives an engine. A page on another
//! site can make the browser send requests to `127.0.0.1`; the browser's
//! same-origin rules stop it from reading the answers, but not from sending
//! a POST, and DNS rebinding (a name of the attacker's that starts
//! resolving to 127.0.0.1) would let it read them too. Both carry a foreign
//! name: rebinding in `Host`, a cross-site request in `Origin`. Requests
//! without `Origin` (curl, scripts) are not from a page and are let through.

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
        }
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
        let changes_state = !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS);
        match origin {
            Some(origin) if changes_state && !self.allows_origin(origin) => {
                Some(ApiError::forbidden(format!(
                    "requests that change a game are taken only from the page at {}, not from '{origin}'",
                    self.url
                )))
            }
            _ => None,
        }
    }
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
        let authority = req.uri().authority().map(std::string::ToString::to_string);
        let host = text(header::HOST).or_else(|| authority.clone());
        let origin = text(header::ORIGIN);
        if hosts > 1 {
            Some(ApiError::bad_request(
                "the request has more than one Host header; send one",
            ))
        } else {
            authority
                .and_then(|a| access.check(req.method(), Some(&a), None))
                .or_else(|| access.check(req.method(), host.as_deref(), origin.as_deref()))
        }
    };
    // The checks borrow the request, which is not Sync: they end before the await.
    match refusal {
        Some(refusal) => refusal.into_response(),
        None => next.run(req).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
