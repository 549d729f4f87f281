#ifndef stickslip_base_screen_log_h
#define stickslip_base_screen_log_h

#include <cstdio>
#include <memory>
#include <ostream>
#include <streambuf>
#include <string>

namespace stickslip
{
  /**
   * The screen output of a run, also written to DIRECTORY/log.txt (as
   * ASPECT's log.txt): a stream that writes to standard output and, once a
   * log file is attached, to that file too. What was printed before (the
   * header, warnings while the input was checked) is kept and written to
   * the log when it is attached, since the output directory is only known,
   * and only written to, after every input check has passed. Writing the log
   * is best effort: a log that cannot be written does not stop the run.
   */
  class ScreenLog
  {
  public:
    ScreenLog();
    ~ScreenLog();

    ScreenLog(const ScreenLog &) = delete;
    ScreenLog &
    operator=(const ScreenLog &) = delete;

    /** The stream to print to (give it to the ConditionalOStream pcout). */
    std::ostream &
    stream();

    /**
     * Start writing to @p path, beginning with @p first_lines: from its
     * start (@p append = false; the text printed so far follows them) or
     * at its end (a resumed run).
     */
    void
    attach(const std::string &path,
           const bool         append,
           const std::string &first_lines);

    /** Write @p text to the log only (an error printed on standard error). */
    void
    write_to_log(const std::string &text);

  private:
    class TeeBuffer;
    std::unique_ptr<TeeBuffer>    buffer;
    std::unique_ptr<std::ostream> tee;
  };
} // namespace stickslip

#endif
