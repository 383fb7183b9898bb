//! Entry point of the browser bundle built by trunk.

fn main() {
    nginx_gen_web::start();
}
