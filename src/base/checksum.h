#ifndef stickslip_base_checksum_h
#define stickslip_base_checksum_h

#include <cstdint>
#include <cstdio>
#include <string>

namespace stickslip
{
  /**
   * FNV-1a, 64 bit: cheap, and any flipped, lost or added byte changes it.
   * Used for the snapshot files and to tie a snapshot to the prefix of
   * history.csv it was taken with. Incremental: checksum(b, checksum(a)) is
   * the checksum of a followed by b.
   */
  constexpr std::uint64_t checksum_start = 1469598103934665603ull;

  inline std::uint64_t
  checksum(const char       *bytes,
           const std::size_t n_bytes,
           std::uint64_t     hash = checksum_start)
  {
    for (std::size_t i = 0; i < n_bytes; ++i)
      {
        hash ^= static_cast<unsigned char>(bytes[i]);
        hash *= 1099511628211ull;
      }
    return hash;
  }

  inline std::uint64_t
  checksum(const std::string &bytes, const std::uint64_t hash = checksum_start)
  {
    return checksum(bytes.data(), bytes.size(), hash);
  }

  /** 16 hexadecimal digits, for text files. */
  inline std::string
  checksum_text(const std::uint64_t hash)
  {
    char text[17];
    std::snprintf(text,
                  sizeof(text),
                  "%016llx",
                  static_cast<unsigned long long>(hash));
    return text;
  }
} // namespace stickslip

#endif
