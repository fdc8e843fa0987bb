fn main() {
    println!("todo");
}
