// SPDX-License-Identifier: MIT
// signal_timer.hpp: a POSIX timer aimed at one OS thread (SIGEV_THREAD_ID),
// the hosts' stand-in for a periodic interrupt line (tests/soak,
// tests/conformance).
#pragma once

#include <sys/syscall.h>
#include <unistd.h>

#include <csignal>
#include <ctime>

namespace ktest {

// this_tid() is the calling OS thread's id, the target a signal_timer takes.
inline pid_t this_tid() { return static_cast<pid_t>(syscall(SYS_gettid)); }

// signal_timer(tid, signo, period_ns) sends signo to thread tid every
// period_ns (< 1 s) until destroyed; ok() is false if the timer could not
// be created or armed.
class signal_timer {
public:
    signal_timer(pid_t tid, int signo, long period_ns) {
        sigevent ev{};
        ev.sigev_notify = SIGEV_THREAD_ID;
        ev.sigev_signo = signo;
        ev._sigev_un._tid = tid;
        if (timer_create(CLOCK_MONOTONIC, &ev, &id_) != 0) return;
        itimerspec spec{};
        spec.it_interval.tv_nsec = period_ns;
        spec.it_value.tv_nsec = period_ns;
        ok_ = timer_settime(id_, 0, &spec, nullptr) == 0;
        created_ = true;
    }
    ~signal_timer() {
        if (created_) timer_delete(id_);
    }
    signal_timer(const signal_timer&) = delete;
    signal_timer& operator=(const signal_timer&) = delete;
    bool ok() const { return ok_; }

private:
    timer_t id_{};
    bool created_ = false;
    bool ok_ = false;
};

}  // namespace ktest
