// Traffic classes between the operations in flight in one process (docs/qos.md): the network
// interface is the process's, so the operations of all its contexts share it. An operation
// sends nothing new (its own chunks or forwarded ones) while one of a more urgent class
//  - is in flight here and still active, or
//  - started here less than its window ago (optiq_options.class_window times its planned time,
//    RankSchedule::predicted_seconds), its own part done or not: ranks without a part in it hold back too, and so leave it the links
//    their traffic would share, as the lexicographic plans assume (bulk bytes use a link fully
//    once the urgent ones are gone; python/optiq/qos.py). With optiq_options.class_until_done
//    the window closes early, once the operation has ended on every rank (ended_everywhere.hpp,
//    on a communicator of the context's own).
// It keeps receiving, and whoever drives it drives the more urgent ones first, so that waiting
// on the less urgent one never stalls the other.
#pragma once

struct optiq_request;
struct optiq_context;

namespace optiq::rt {

// A more urgent operation that has seen no progress for this long stops holding the others
// back: classes order sends, they never make one operation's completion depend on another's
// (a program may wait for a bulk operation before its peers start the urgent one).
constexpr double kClassStallSeconds = 1e-3;

// Registers a started operation of class `priority` (0 most urgent) that every rank keeps the
// network for during `window_seconds` (or until it has completed everywhere, when the context
// has a classes communicator), and forgets it when its part here ends, completed, failed or
// dropped (its window stays until it has passed or closed).
void class_enter(optiq_request* request, int priority, double window_seconds);
void class_leave(optiq_request* request);
// Completes the end notices of `ctx`'s operations still open and forgets their windows: before
// the context's communicators are freed (every rank has entered them by then, each operation
// having ended on every rank).
void class_forget(optiq_context* ctx);
// Steps every more urgent operation in flight in the process that no other thread is stepping
// (without waiting), then says whether one of them still holds `request` back.
bool class_yield(optiq_request* request);

}  // namespace optiq::rt
