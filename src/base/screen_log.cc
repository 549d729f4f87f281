#include <base/screen_log.h>

#include <iostream>

namespace stickslip
{
  /**
   * Sends every character to the screen's buffer and to the log file (or,
   * before one is attached, to a string kept for it).
   */
  class ScreenLog::TeeBuffer : public std::streambuf
  {
  public:
    explicit TeeBuffer(std::streambuf *screen)
      : screen(screen)
      , log(nullptr)
    {}

    ~TeeBuffer() override
    {
      if (log != nullptr)
        std::fclose(log);
    }

    void
    attach(const std::string &path,
           const bool         append,
           const std::string &first_lines)
    {
      if (log != nullptr)
        std::fclose(log);
      log = std::fopen(path.c_str(), append ? "a" : "w");
      if (log != nullptr)
        std::fwrite(first_lines.data(), 1, first_lines.size(), log);
      if (log != nullptr && !append)
        std::fwrite(kept.data(), 1, kept.size(), log);
      kept.clear();
      if (log != nullptr)
        std::fflush(log);
    }

    void
    write_to_log(const std::string &text)
    {
      if (log != nullptr)
        {
          std::fwrite(text.data(), 1, text.size(), log);
          std::fflush(log);
        }
    }

  protected:
    int_type
    overflow(const int_type c) override
    {
      if (traits_type::eq_int_type(c, traits_type::eof()))
        return traits_type::not_eof(c);
      const char character = traits_type::to_char_type(c);
      xsputn(&character, 1);
      return c;
    }

    std::streamsize
    xsputn(const char *text, const std::streamsize n) override
    {
      screen->sputn(text, n);
      if (log != nullptr)
        std::fwrite(text, 1, n, log);
      else if (kept.size() < max_kept)
        kept.append(text, n);
      return n;
    }

    int
    sync() override
    {
      if (log != nullptr)
        std::fflush(log);
      return screen->pubsync();
    }

  private:
    /** The text kept for a log not yet attached is at most this long. */
    static constexpr std::size_t max_kept = 1 << 20;

    std::streambuf *screen;
    std::FILE      *log;
    std::string     kept;
  };



  ScreenLog::ScreenLog()
    : buffer(std::make_unique<TeeBuffer>(std::cout.rdbuf()))
    , tee(std::make_unique<std::ostream>(buffer.get()))
  {}



  ScreenLog::~ScreenLog()
  {
    tee->flush();
  }



  std::ostream &
  ScreenLog::stream()
  {
    return *tee;
  }



  void
  ScreenLog::attach(const std::string &path,
                    const bool         append,
                    const std::string &first_lines)
  {
    tee->flush();
    buffer->attach(path, append, first_lines);
  }



  void
  ScreenLog::write_to_log(const std::string &text)
  {
    buffer->write_to_log(text);
  }
} // namespace stickslip
