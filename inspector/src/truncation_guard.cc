#include "truncation_guard.h"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <mutex>

namespace etbench {
namespace {

// The guarded mappings. A slot is claimed by a compare-and-swap of `begin`
// from 0 (the size is written before `begin` publishes it); the signal
// handler only reads slots and sets `truncated`, which is lock-free and
// async-signal-safe.
struct Slot {
  std::atomic<uintptr_t> begin{0};
  std::atomic<std::size_t> size{0};
  std::atomic<bool> truncated{false};
};
Slot g_slots[TruncationGuard::kMaxGuarded];

struct sigaction g_previous;  // what SIGBUS did before the guard's handler
uintptr_t g_page_size = 4096;

void RestorePreviousAndReturn() {
  // The faulting read runs again on return and raises SIGBUS again, now
  // handled as it was before this handler (by default: the end of the process).
  sigaction(SIGBUS, &g_previous, nullptr);
}

void OnSigbus(int signal, siginfo_t* info, void* context) {
  const auto address = reinterpret_cast<uintptr_t>(info->si_addr);
  for (Slot& slot : g_slots) {
    const uintptr_t begin = slot.begin.load(std::memory_order_acquire);
    if (begin <= 1) continue;  // free, or being claimed
    const std::size_t size = slot.size.load(std::memory_order_relaxed);
    const uintptr_t end = begin + ((size + g_page_size - 1) & ~(g_page_size - 1));
    if (address < begin || address >= end) continue;
    // Zero pages from the faulting page to the end of the mapping.
    const uintptr_t page = address & ~(g_page_size - 1);
    void* zeros = mmap(reinterpret_cast<void*>(page), end - page, PROT_READ,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (zeros == MAP_FAILED) break;
    slot.truncated.store(true, std::memory_order_relaxed);
    return;
  }
  if ((g_previous.sa_flags & SA_SIGINFO) != 0 && g_previous.sa_sigaction != nullptr) {
    g_previous.sa_sigaction(signal, info, context);
    return;
  }
  if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN &&
      g_previous.sa_handler != nullptr) {
    g_previous.sa_handler(signal);
    return;
  }
  RestorePreviousAndReturn();
}

void InstallOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    const long page = sysconf(_SC_PAGESIZE);
    if (page > 0) g_page_size = static_cast<uintptr_t>(page);
    struct sigaction action {};
    action.sa_sigaction = OnSigbus;
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    sigaction(SIGBUS, &action, &g_previous);
  });
}

}  // namespace

TruncationGuard::TruncationGuard(const void* begin, std::size_t size) {
  if (begin == nullptr || size == 0) return;
  InstallOnce();
  for (std::size_t i = 0; i < kMaxGuarded; ++i) {
    uintptr_t expected = 0;
    // Claim with a placeholder first so that no other guard takes the slot
    // while its size is written; the handler skips the placeholder's range.
    if (!g_slots[i].begin.compare_exchange_strong(expected, 1, std::memory_order_acq_rel)) {
      continue;
    }
    g_slots[i].truncated.store(false, std::memory_order_relaxed);
    g_slots[i].size.store(size, std::memory_order_relaxed);
    g_slots[i].begin.store(reinterpret_cast<uintptr_t>(begin), std::memory_order_release);
    slot_ = static_cast<int>(i);
    return;
  }
}

TruncationGuard::~TruncationGuard() {
  if (slot_ >= 0) g_slots[slot_].begin.store(0, std::memory_order_release);
}

bool TruncationGuard::truncated() const {
  return slot_ >= 0 && g_slots[slot_].truncated.load(std::memory_order_relaxed);
}

}  // namespace etbench
