//! `/etc/nginx/nginx.conf`: main context, `events {}` and `http {}`.

use super::{header, with_new_reason};
use crate::ir::{self, Node};
use crate::plan::{Plan, Scope};

/// Builds the nodes of one scope, each setting under its reason.
pub(super) fn scope_nodes(plan: &Plan, scope: Scope) -> Vec<Node<'_>> {
    let settings: Vec<_> = with_new_reason(plan, scope).collect();
    // At most a blank line, a reason and the directive per setting.
    let mut nodes = Vec::with_capacity(3 * settings.len());
    for (setting, new_reason) in settings {
        if new_reason {
            if !nodes.is_empty() {
                nodes.push(Node::Blank);
            }
            nodes.push(Node::Reason(&setting.reason));
        }
        nodes.push(Node::Directive {
            name: setting.name,
            args: &setting.args,
        });
    }
    nodes
}

/// Omitted settings of nginx.conf, as a closing comment.
fn omitted_nodes(plan: &Plan) -> Vec<Node<'_>> {
    let nginx: Vec<_> = plan
        .omitted
        .iter()
        .filter(|o| !o.name.contains('.'))
        .collect();
    if nginx.is_empty() {
        return Vec::new();
    }
    let mut nodes = vec![
        Node::Blank,
        Node::Comment("Left at nginx's defaults on purpose:".into()),
    ];
    for o in nginx {
        nodes.push(Node::Comment(
            ["- ", o.name, ": ", o.reason.why].concat().into(),
        ));
    }
    nodes
}

/// Renders nginx.conf.
pub fn nginx_conf(plan: &Plan) -> String {
    let mut tree: Vec<Node> = header(plan, "nginx.conf")
        .into_iter()
        .map(Node::Comment)
        .collect();
    tree.push(Node::Blank);
    tree.extend(scope_nodes(plan, Scope::Main));
    tree.push(Node::Blank);
    tree.push(Node::block(
        "events",
        vec![],
        scope_nodes(plan, Scope::Events),
    ));
    tree.push(Node::Blank);
    tree.push(Node::block("http", vec![], scope_nodes(plan, Scope::Http)));
    tree.extend(omitted_nodes(plan));
    ir::write(&tree)
}
