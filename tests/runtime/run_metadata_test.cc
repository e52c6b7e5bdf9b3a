#include "etbench/runtime/run_metadata.h"

#include <gtest/gtest.h>

namespace etbench::runtime {
namespace {

TEST(RuntimeRunMetadataTest, RoundTripsThroughJson) {
  RunMetadata metadata;
  metadata.model = "toy_cnn";
  metadata.model_path = "configs/models/toy_cnn.yaml";
  metadata.model_sha256 = "ab";
  metadata.time_source = "cycles";
  metadata.tick_rate_hz = 2.5e9;
  metadata.tick_rate_measured = true;
  metadata.num_executions = 20;
  metadata.seed = 42;
  metadata.slowdowns = {{"conv2d", 1.1}};
  metadata.delegates = {{"npu", 3, "cycles"}};
  metadata.etdump_path = "/tmp/t.etdp";
  const std::string json = RunMetadataToJson(metadata);
  auto parsed = ParseRunMetadata(json, "t.meta.json");
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  EXPECT_EQ(parsed->model, "toy_cnn");
  EXPECT_EQ(parsed->time_source, "cycles");
  EXPECT_DOUBLE_EQ(parsed->tick_rate_hz, 2.5e9);
  EXPECT_TRUE(parsed->tick_rate_measured);
  EXPECT_EQ(parsed->num_executions, 20);
  EXPECT_EQ(parsed->seed, 42u);
  ASSERT_EQ(parsed->slowdowns.size(), 1u);
  EXPECT_EQ(parsed->slowdowns[0].target, "conv2d");
  ASSERT_EQ(parsed->delegates.size(), 1u);
  EXPECT_EQ(parsed->delegates[0].instruction_id, 3);
  EXPECT_FALSE(parsed->debug_output_path.has_value());
  EXPECT_EQ(RunMetadataPath("/tmp/t.etdp"), "/tmp/t.etdp.meta.json");
}

TEST(RuntimeRunMetadataTest, RejectsOtherSchemaVersionsAndBadFields) {
  EXPECT_NE(ParseRunMetadata(R"({"schema_version": 2})", "m.json")
                .error()
                .message.find("schema_version 2 is not supported"),
            std::string::npos);
  EXPECT_FALSE(ParseRunMetadata("not json", "m.json").ok());
  EXPECT_FALSE(ParseRunMetadata(R"({"schema_version": 1, "model": "m",
      "time_source": "weeks", "tick_rate_hz": 1})", "m.json").ok());
  EXPECT_FALSE(ParseRunMetadata(R"({"schema_version": 1, "model": "m",
      "time_source": "ns"})", "m.json").ok());
}

TEST(RuntimeRunMetadataTest, Sha256MatchesKnownDigests) {
  EXPECT_EQ(Sha256Hex(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256Hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // 56 bytes: the padding spills into a second block.
  EXPECT_EQ(Sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(Sha256Hex(std::string(1000, 'a')),
            "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
}

}  // namespace
}  // namespace etbench::runtime
