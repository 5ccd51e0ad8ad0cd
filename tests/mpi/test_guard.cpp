// The guard every extern "C" entry point of the runtime runs its work through: whatever is
// thrown, including what is not a std::exception, comes back as a status and a message.
#include <gtest/gtest.h>

#include <new>
#include <type_traits>

#include "runtime/api/context.hpp"

using namespace optiq;

namespace {

template <class F>
rt::Verdict run(F&& f) {
  static_assert(noexcept(rt::verdict(std::forward<F>(f))), "the guard itself never throws");
  return rt::verdict(std::forward<F>(f));
}

}  // namespace

TEST(Guard, EveryExceptionBecomesAStatus) {
  EXPECT_EQ(run([] {}).code, OPTIQ_SUCCESS);
  const rt::Verdict failure = run([] { throw rt::Failure(OPTIQ_ERR_PLAN, "no plan"); });
  EXPECT_EQ(failure.code, OPTIQ_ERR_PLAN);
  EXPECT_EQ(failure.message, "no plan");
  EXPECT_EQ(run([] { throw Error("bad input"); }).code, OPTIQ_ERR_ARG);
  const rt::Verdict internal = run([] { OPTIQ_CHECK(1 == 2, "arithmetic"); });
  EXPECT_EQ(internal.code, OPTIQ_ERR_INTERNAL);
  EXPECT_NE(internal.message.find("arithmetic"), std::string::npos);
  EXPECT_EQ(run([] { throw std::bad_alloc(); }).message, "internal error: out of memory");
  const rt::Verdict odd = run([] { throw 42; });
  EXPECT_EQ(odd.code, OPTIQ_ERR_INTERNAL);
  EXPECT_NE(odd.message.find("unknown exception"), std::string::npos);
}

TEST(Guard, TheContextKeepsTheMessage) {
  optiq_context ctx;
  EXPECT_EQ(rt::guarded(&ctx, [] { throw 7; }), OPTIQ_ERR_INTERNAL);
  EXPECT_NE(ctx.error.find("unknown exception"), std::string::npos);
  EXPECT_EQ(rt::guarded(&ctx, [] {}), OPTIQ_SUCCESS);
}

// The C entry points refuse missing handles without touching them.
TEST(Guard, NullHandles) {
  int flag = 5;
  EXPECT_EQ(optiq_test(nullptr, &flag), OPTIQ_ERR_ARG);
  EXPECT_EQ(optiq_wait(nullptr), OPTIQ_ERR_ARG);
  optiq_request_t none = nullptr;
  EXPECT_EQ(optiq_wait(&none), OPTIQ_ERR_ARG);
  EXPECT_EQ(optiq_plan_counts(nullptr, nullptr, nullptr), OPTIQ_ERR_ARG);
  EXPECT_EQ(optiq_plan_free(nullptr), OPTIQ_ERR_ARG);
  EXPECT_EQ(optiq_execute(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr), OPTIQ_ERR_ARG);
  EXPECT_EQ(optiq_plan_load(nullptr, "x", nullptr), OPTIQ_ERR_ARG);
  EXPECT_EQ(optiq_create(MPI_COMM_NULL, "torus:2", nullptr, nullptr), OPTIQ_ERR_ARG);
  EXPECT_EQ(optiq_destroy(nullptr), OPTIQ_ERR_ARG);
  EXPECT_EQ(optiq_get_stats(nullptr, nullptr), OPTIQ_ERR_ARG);
  EXPECT_STREQ(optiq_error_string(nullptr), "no context");
}
