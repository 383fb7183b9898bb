//! The site file: upstream, catch-all servers and the site's server blocks.

use super::nginx::{omitted_nodes, scope_nodes};
use super::{Header, texts, write_tree};
use crate::i18n::Catalogue;
use crate::ir::{Node, Origin};
use crate::plan::{FileKind, LocationRole, Plan, Scope, ServerRole};
use crate::rules::Text;

fn server_title(role: ServerRole) -> &'static Text {
    match role {
        ServerRole::CatchAll => &texts::SERVER_CATCH_ALL,
        ServerRole::CatchAllTls => &texts::SERVER_CATCH_ALL_TLS,
        ServerRole::Site => &texts::SERVER_SITE,
        ServerRole::SiteTls => &texts::SERVER_SITE_TLS,
        ServerRole::Alias => &texts::SERVER_ALIAS,
        ServerRole::Status => &texts::SERVER_STATUS,
    }
}

pub(super) fn render(
    plan: &Plan,
    cat: &Catalogue,
    head: &Header,
    origins: Option<&mut Vec<Origin>>,
) -> String {
    write_tree(&tree(plan, cat, head), cat, origins)
}

fn tree<'a>(plan: &'a Plan, cat: &Catalogue, head: &'a Header) -> Vec<Node<'a>> {
    // The header, then up to a blank line, a title and a block per server and upstream.
    let mut tree: Vec<Node> = Vec::with_capacity(24);
    tree.extend(
        head.lines(cat.get(&texts::WHAT_SITE), cat)
            .map(Node::Comment),
    );
    if let Some(cmd) = &plan.precompress {
        tree.push(Node::Comment(
            [cat.get(&texts::SITE_PRECOMPRESS), "\n  ", cmd]
                .concat()
                .into(),
        ));
    }
    // The settings of every block, counted in one pass, so that blocks without any are not
    // searched: `counts[server][0]` is the server block's own, `counts[server][1 + location]`
    // a location's.
    let mut upstream = 0;
    let mut counts = [[0; 1 + LocationRole::ALL.len()]; ServerRole::ALL.len()];
    for setting in &plan.settings {
        match setting.scope {
            Scope::Upstream => upstream += 1,
            Scope::Server { server } => counts[server as usize][0] += 1,
            Scope::Location { server, location } => {
                counts[server as usize][1 + location as usize] += 1;
            }
            _ => {}
        }
    }
    // Tables (`types`, `map`) first: the servers below use their variables.
    for (index, setting) in plan.settings.iter().enumerate() {
        if let Scope::Table { table } = setting.scope {
            tree.push(Node::Blank);
            tree.push(Node::Reason(&setting.reason));
            tree.push(Node::Table {
                name: setting.name,
                args: &setting.args,
                rows: table.rows(),
                setting: index,
            });
        }
    }
    if upstream > 0 {
        tree.push(Node::Blank);
        tree.push(Node::block(
            "upstream",
            vec!["app"],
            scope_nodes(plan, Scope::Upstream, upstream),
        ));
    }
    for server in ServerRole::ALL {
        let counts = counts[server as usize];
        if counts.iter().all(|&n| n == 0) {
            continue;
        }
        let mut children = scope_nodes(plan, Scope::Server { server }, counts[0]);
        children.reserve(2 * LocationRole::ALL.len());
        for location in LocationRole::ALL {
            if location.parent().is_none() {
                push_location(&mut children, plan, server, location, &counts);
            }
        }
        tree.push(Node::Blank);
        tree.push(Node::Comment(
            cat.get(server_title(server)).to_owned().into(),
        ));
        tree.push(Node::block("server", vec![], children));
    }
    tree.extend(omitted_nodes(plan, FileKind::Site, cat));
    tree
}

/// A location of `server` with its settings and, after them, the locations nested in it,
/// each after a blank line; nothing when none of them has a setting.
fn push_location<'p>(
    out: &mut Vec<Node<'p>>,
    plan: &'p Plan,
    server: ServerRole,
    location: LocationRole,
    counts: &[usize; 1 + LocationRole::ALL.len()],
) {
    let count = counts[1 + location as usize];
    let mut body = scope_nodes(plan, Scope::Location { server, location }, count);
    for nested in LocationRole::ALL {
        if nested.parent() == Some(location) {
            push_location(&mut body, plan, server, nested, counts);
        }
    }
    if !body.is_empty() {
        out.push(Node::Blank);
        out.push(Node::block("location", location.matcher().to_vec(), body));
    }
}
