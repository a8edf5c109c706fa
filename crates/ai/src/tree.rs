//! The search tree shared by the Monte Carlo searches: nodes in one vector,
//! edges labelled by actions, per-player sums of scores.

use crate::values::Values;
use spelbord_engine::MAX_PLAYERS;

/// No node.
pub const NONE: u32 = u32::MAX;

/// An edge: an action (or chance outcome) and the node it leads to.
#[derive(Clone, Debug)]
pub struct Edge<A> {
    /// The action.
    pub action: A,
    /// Prior probability (PUCT), 0 when unused.
    pub prior: f32,
    /// In how many iterations the action was available (ISMCTS).
    pub available: u32,
    /// The child node, or [`NONE`] before it is first visited.
    pub child: u32,
}

/// A node: visit count, per-player score sums and the edges out of it.
#[derive(Clone, Debug)]
pub struct Node<A> {
    /// Iterations through this node.
    pub visits: u32,
    /// Sum of each player's score over those iterations.
    pub sum: Values,
    /// Sum of squares of each player's score (for confidence intervals).
    pub sq: Values,
    /// Whether the decision's actions have been listed.
    pub expanded: bool,
    /// The edges out of the node.
    pub edges: Vec<Edge<A>>,
}

impl<A> Default for Node<A> {
    fn default() -> Self {
        Node {
            visits: 0,
            sum: [0.0; MAX_PLAYERS],
            sq: [0.0; MAX_PLAYERS],
            expanded: false,
            edges: Vec::new(),
        }
    }
}

impl<A> Node<A> {
    /// Mean score of `player`, or `default` when unvisited.
    #[inline]
    pub fn mean(&self, player: usize, default: f64) -> f64 {
        if self.visits == 0 {
            default
        } else {
            self.sum[player] / self.visits as f64
        }
    }

    /// Half-width of the 95% confidence interval of `player`'s mean score.
    pub fn margin(&self, player: usize) -> f64 {
        let n = self.visits as f64;
        if n < 2.0 {
            return 0.5;
        }
        let mean = self.sum[player] / n;
        let var = (self.sq[player] / n - mean * mean).max(0.0) * n / (n - 1.0);
        1.96 * (var / n).sqrt()
    }

    /// Adds one iteration's scores.
    #[inline]
    pub fn add(&mut self, v: &Values, players: usize) {
        self.visits += 1;
        for (p, &x) in v.iter().enumerate().take(players) {
            self.sum[p] += x;
            self.sq[p] += x * x;
        }
    }
}

/// A tree of nodes; index 0 is the root.
#[derive(Clone, Debug)]
pub struct Tree<A> {
    /// Every node; children refer to indices.
    pub nodes: Vec<Node<A>>,
    /// Heap bytes of the nodes' edge lists (their capacity).
    edge_bytes: usize,
}

impl<A: Copy + PartialEq> Tree<A> {
    /// A tree with only a root.
    pub fn new() -> Self {
        Tree {
            nodes: vec![Node::default()],
            edge_bytes: 0,
        }
    }

    /// Heap bytes the tree holds: the node vector and every edge list, by
    /// capacity (what a memory cap must count).
    pub fn bytes(&self) -> usize {
        self.nodes.capacity() * size_of::<Node<A>>() + self.edge_bytes
    }

    /// Gives `node` these edges (replacing any it had).
    pub fn set_edges(&mut self, node: u32, edges: Vec<Edge<A>>) {
        let n = &mut self.nodes[node as usize];
        self.edge_bytes -= n.edges.capacity() * size_of::<Edge<A>>();
        self.edge_bytes += edges.capacity() * size_of::<Edge<A>>();
        n.edges = edges;
    }

    /// Adds an edge to `node`; returns its index.
    pub fn push_edge(&mut self, node: u32, edge: Edge<A>) -> usize {
        let edges = &mut self.nodes[node as usize].edges;
        let before = edges.capacity();
        edges.push(edge);
        self.edge_bytes += (edges.capacity() - before) * size_of::<Edge<A>>();
        edges.len() - 1
    }

    /// Adds a node and returns its index.
    #[inline]
    pub fn add_node(&mut self) -> u32 {
        self.nodes.push(Node::default());
        (self.nodes.len() - 1) as u32
    }

    /// The child of `node` along `action` if there is one (any edge).
    pub fn child(&self, node: u32, action: A) -> u32 {
        self.nodes[node as usize]
            .edges
            .iter()
            .find(|e| e.action == action)
            .map_or(NONE, |e| e.child)
    }

    /// The child of chance node `node` for `outcome`, created if new; the
    /// flag tells whether it was created.
    pub fn chance_child(&mut self, node: u32, outcome: A) -> (u32, bool) {
        let at = node as usize;
        if let Some(e) = self.nodes[at].edges.iter().find(|e| e.action == outcome) {
            return (e.child, false);
        }
        let child = self.add_node();
        self.push_edge(
            node,
            Edge {
                action: outcome,
                prior: 0.0,
                available: 0,
                child,
            },
        );
        (child, true)
    }

    /// The action of edge `i` of `node` and the node it leads to, created
    /// if new; the flag tells whether it was created.
    pub fn follow(&mut self, node: u32, i: usize) -> (A, u32, bool) {
        let edge = &self.nodes[node as usize].edges[i];
        let (action, child) = (edge.action, edge.child);
        if child != NONE {
            return (action, child, false);
        }
        let child = self.add_node();
        self.nodes[node as usize].edges[i].child = child;
        (action, child, true)
    }

    /// Adds one iteration's scores to every node on `path`.
    pub fn back_up(&mut self, path: &[u32], scores: &Values, players: usize) {
        for &id in path {
            self.nodes[id as usize].add(scores, players);
        }
    }

    /// Keeps only the subtree under `node`, which becomes the root.
    pub fn reroot(&mut self, node: u32) {
        let mut old = std::mem::take(&mut self.nodes);
        let mut order = vec![node];
        let mut next = 0;
        let mut nodes = Vec::new();
        while next < order.len() {
            let mut n = std::mem::take(&mut old[order[next] as usize]);
            next += 1;
            for e in &mut n.edges {
                if e.child != NONE {
                    order.push(e.child);
                    e.child = (order.len() - 1) as u32;
                }
            }
            nodes.push(n);
        }
        self.nodes = nodes;
        self.edge_bytes = self
            .nodes
            .iter()
            .map(|n| n.edges.capacity() * size_of::<Edge<A>>())
            .sum();
    }
}

impl<A: Copy + PartialEq> Default for Tree<A> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reroot_keeps_the_subtree_and_its_links() {
        let mut t: Tree<u8> = Tree::new();
        let (a, _) = t.chance_child(0, 1);
        let (b, _) = t.chance_child(0, 2);
        let (c, _) = t.chance_child(a, 3);
        t.nodes[c as usize].visits = 7;
        t.nodes[b as usize].visits = 9;
        let before = t.bytes();
        t.reroot(a);
        assert!(t.bytes() < before, "rerooting frees the dropped edges");
        assert_eq!(t.nodes.len(), 2);
        let c2 = t.child(0, 3);
        assert_eq!(t.nodes[c2 as usize].visits, 7);
        assert_eq!(t.child(0, 2), NONE);
    }

    #[test]
    fn bytes_count_nodes_and_edge_lists() {
        let mut t: Tree<u8> = Tree::new();
        let empty = t.bytes();
        t.set_edges(
            0,
            (0..10)
                .map(|action| Edge {
                    action,
                    prior: 0.0,
                    available: 0,
                    child: NONE,
                })
                .collect(),
        );
        assert_eq!(t.bytes(), empty + 10 * size_of::<Edge<u8>>());
        t.chance_child(0, 99);
        assert!(t.bytes() >= empty + 11 * size_of::<Edge<u8>>() + size_of::<Node<u8>>());
    }
}
