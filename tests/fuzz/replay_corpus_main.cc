// Replays a fuzzer's corpus without libFuzzer: feeds every file under the
// given directories (or the given files) to the fuzzer's own
// LLVMFuzzerTestOneInput, so that ctest catches a regression a fuzzer once
// found, with any compiler. A fuzzer signals a failure by crashing (its checks
// trap), which fails the test.
//   replay_corpus [--lines] PATH...
// --lines also feeds every line of every file twice, prefixed with the bytes
// 0x00 and 0x01 (json_codec_fuzzer reads its first byte as the message type).
// Exit 0 when every input ran; 2 when no input was found.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

void Feed(const std::string& input) {
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(input.data()), input.size());
}

std::vector<std::filesystem::path> Inputs(const std::vector<std::string>& paths) {
  std::vector<std::filesystem::path> files;
  for (const std::string& path : paths) {
    if (std::filesystem::is_directory(path)) {
      for (const auto& entry : std::filesystem::recursive_directory_iterator(path)) {
        if (entry.is_regular_file()) files.push_back(entry.path());
      }
    } else if (std::filesystem::is_regular_file(path)) {
      files.emplace_back(path);
    }
  }
  return files;
}

}  // namespace

int main(int argc, char** argv) {
  bool lines = false;
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--lines") {
      lines = true;
    } else {
      paths.push_back(arg);
    }
  }
  const std::vector<std::filesystem::path> files = Inputs(paths);
  if (files.empty()) {
    std::fprintf(stderr, "no corpus files found\n");
    return 2;
  }
  long inputs = 0;
  for (const std::filesystem::path& file : files) {
    std::ifstream in(file, std::ios::binary);
    const std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    Feed(content);
    ++inputs;
    if (!lines) continue;
    std::istringstream stream(content);
    for (std::string line; std::getline(stream, line);) {
      Feed(std::string(1, '\0') + line);
      Feed(std::string(1, '\1') + line);
      inputs += 2;
    }
  }
  std::printf("%zu files, %ld inputs replayed\n", files.size(), inputs);
  return 0;
}
