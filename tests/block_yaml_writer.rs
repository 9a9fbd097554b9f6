//! The test-only block-YAML writer (`tests/block_yaml`): its own rules
//! (unit tests in the module), and the benchmark inputs
//! `benches/data/*.yaml` being exactly what it writes for
//! `benches/data/*.json` (`cargo run --example to_block_yaml` rewrites them;
//! `tools/check_block_yaml.py` checks their data against kubectl's reading).

mod block_yaml;
mod common;

#[test]
fn bench_yaml_files_are_the_writers_output() {
    let Some(dir) = common::sweep::bench_data() else {
        return;
    };
    let dir = dir.display();
    for name in ["twitter", "citm_catalog", "canada", "k8s_swagger"] {
        let json = std::fs::read_to_string(format!("{dir}/{name}.json")).unwrap();
        let json = block_yaml::exact_json(&json).unwrap();
        let mut want = String::new();
        block_yaml::write_block_yaml(&json, &mut want);
        let got = std::fs::read_to_string(format!("{dir}/{name}.yaml")).unwrap();
        assert!(
            got == want,
            "{name}.yaml is not the writer's output: run the example to_block_yaml"
        );
    }
}
