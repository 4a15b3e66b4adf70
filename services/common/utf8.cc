#include "services/common/utf8.h"

namespace arbiter::common {

int DecodeUtf8(const unsigned char* p, const unsigned char* end, uint32_t& cp) {
  const unsigned char lead = *p;
  int length = 0;
  uint32_t min = 0;
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2, min = 0x80, cp = lead & 0x1f;
  } else if ((lead & 0xf0) == 0xe0) {
    length = 3, min = 0x800, cp = lead & 0x0f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4, min = 0x10000, cp = lead & 0x07;
  } else {
    return 0;
  }
  if (end - p < length) return 0;
  for (int k = 1; k < length; ++k) {
    if ((p[k] & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (p[k] & 0x3f);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  return length;
}

void AppendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xc0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xe0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else {
    out.push_back(static_cast<char>(0xf0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  }
}

}  // namespace arbiter::common
