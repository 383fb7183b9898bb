//! `/etc/nginx/nginx.conf`: main context, `events {}` and `http {}`.

use super::{Header, texts, with_new_reason, write_tree};
use crate::i18n::Catalogue;
use crate::ir::{Node, Origin};
use crate::plan::{FileKind, Plan, Scope};

/// Builds the nodes of one scope, each setting under its reason; `count` is the number of
/// its settings, which callers count for all their scopes in one pass.
pub(super) fn scope_nodes(plan: &Plan, scope: Scope, count: usize) -> Vec<Node<'_>> {
    if count == 0 {
        return Vec::new();
    }
    // At most a blank line, a reason and the directive per setting.
    let mut nodes = Vec::with_capacity(3 * count);
    // `take` ends the search at the last setting of the scope.
    for (setting, index, new_reason) in with_new_reason(plan, scope).take(count) {
        if new_reason {
            if !nodes.is_empty() {
                nodes.push(Node::Blank);
            }
            nodes.push(Node::Reason(&setting.reason));
        }
        nodes.push(Node::Directive {
            name: setting.name,
            args: &setting.args,
            setting: index,
        });
    }
    nodes
}

/// Omitted settings of one nginx file, as a closing comment: one line per setting, in one
/// string (each line is wrapped on its own).
pub(super) fn omitted_nodes<'a>(plan: &'a Plan, file: FileKind, cat: &Catalogue) -> Vec<Node<'a>> {
    let mut nginx = plan
        .omitted
        .iter()
        .filter(|o| o.scope.file() == file)
        .peekable();
    if nginx.peek().is_none() {
        return Vec::new();
    }
    // A line is a name and a sentence or two: room for about twenty.
    let mut text = String::with_capacity(4096);
    text.push_str(cat.get(&texts::OMITTED_NGINX));
    for o in nginx {
        for part in ["\n- ", o.name, ": ", &cat.why(&o.reason)] {
            text.push_str(part);
        }
    }
    vec![Node::Blank, Node::Comment(text.into())]
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
    // The header's four comments, blank lines, main settings, two blocks and the omitted.
    let mut tree: Vec<Node> = Vec::with_capacity(64);
    tree.extend(head.lines("nginx.conf", cat).map(Node::Comment));
    let (mut main, mut events, mut http) = (0, 0, 0);
    for setting in &plan.settings {
        match setting.scope {
            Scope::Main => main += 1,
            Scope::Events => events += 1,
            Scope::Http => http += 1,
            _ => {}
        }
    }
    tree.push(Node::Blank);
    tree.extend(scope_nodes(plan, Scope::Main, main));
    tree.push(Node::Blank);
    tree.push(Node::block(
        "events",
        vec![],
        scope_nodes(plan, Scope::Events, events),
    ));
    tree.push(Node::Blank);
    tree.push(Node::block(
        "http",
        vec![],
        scope_nodes(plan, Scope::Http, http),
    ));
    tree.extend(omitted_nodes(plan, FileKind::Nginx, cat));
    tree
}
