//! The site file: upstream, catch-all servers and the site's server blocks.

use super::header;
use super::nginx::scope_nodes;
use crate::ir::{self, Node};
use crate::plan::{LocationRole, Plan, Scope, ServerRole};

fn server_title(role: ServerRole) -> &'static str {
    match role {
        ServerRole::CatchAll => {
            "Catch-all for unknown host names on plain HTTP; owns the listen options."
        }
        ServerRole::CatchAllTls => {
            "Catch-all for unknown host names on HTTPS; owns the listen options."
        }
        ServerRole::Site => "The site on plain HTTP.",
        ServerRole::SiteTls => "The site on HTTPS.",
    }
}

/// Renders the site file.
pub fn site(plan: &Plan) -> String {
    let mut tree: Vec<Node> = header(plan, "Site file")
        .into_iter()
        .map(Node::Comment)
        .collect();
    if let Some(cmd) = &plan.precompress {
        tree.push(Node::Comment(
            format!("Precompress the files after every deploy (for gzip_static):\n  {cmd}").into(),
        ));
    }
    let upstream = scope_nodes(plan, Scope::Upstream);
    if !upstream.is_empty() {
        tree.push(Node::Blank);
        tree.push(Node::block("upstream", vec!["app"], upstream));
    }
    // The server blocks that have settings, found in one pass, so that the others are not
    // searched location by location.
    let mut used = [false; ServerRole::ALL.len()];
    for setting in &plan.settings {
        if let Scope::Server { server } | Scope::Location { server, .. } = setting.scope {
            used[server as usize] = true;
        }
    }
    for server in ServerRole::ALL.into_iter().filter(|s| used[*s as usize]) {
        let mut children = scope_nodes(plan, Scope::Server { server });
        for location in LocationRole::ALL {
            let body = scope_nodes(plan, Scope::Location { server, location });
            if !body.is_empty() {
                children.push(Node::Blank);
                children.push(Node::block("location", location.matcher().to_vec(), body));
            }
        }
        if !children.is_empty() {
            tree.push(Node::Blank);
            tree.push(Node::Comment(server_title(server).into()));
            tree.push(Node::block("server", vec![], children));
        }
    }
    ir::write(&tree)
}
