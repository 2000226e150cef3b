#pragma once

#include "etcdclient/detail/tag.h"

#include <cassert>
#include <deque>
#include <functional>
#include <grpcpp/grpcpp.h>
#include <memory>

namespace etcd::detail {

// One bidirectional gRPC stream driven from the completion-queue thread: at most one read and
// one write in flight, writes queued in order, Finish issued once reads have ended and no write
// is pending. The stream deletes itself after Finish completes and then calls onFinalized, so
// its owner only forgets the pointer in onClosed. Every method runs on the queue thread.
template <class Req, class Resp> class BidiStream {
public:
    using ReaderWriter = grpc::ClientAsyncReaderWriter<Req, Resp>;
    using Opener =
        std::function<std::unique_ptr<ReaderWriter>(grpc::ClientContext*, grpc::CompletionQueue*)>;
    struct Handlers {
        std::function<void(const Resp&)> onRead;
        std::function<void(const grpc::Status&)> onClosed; // once; the stream is dead after it
    };

    BidiStream(grpc::CompletionQueue* cq, std::unique_ptr<grpc::ClientContext> context,
               const Opener& open, Handlers handlers, std::function<void()> onFinalized)
        : context_(std::move(context))
        , handlers_(std::move(handlers))
        , onFinalized_(std::move(onFinalized)) {
        stream_ = open(context_.get(), cq);
        ++pending_;
        handOver(&startTag_);
        stream_->StartCall(&startTag_);
    }

    void write(Req request) {
        queue_.push_back(std::move(request));
        flush();
    }
    void cancel() { context_->TryCancel(); }

private:
    void onStart(bool ok) {
        --pending_;
        if (!ok) {
            endReads();
            return;
        }
        started_ = true;
        read();
        flush();
    }
    void read() {
        ++pending_;
        handOver(&readTag_);
        stream_->Read(&incoming_, &readTag_);
    }
    void onRead(bool ok) {
        --pending_;
        if (!ok) {
            endReads();
            return;
        }
        if (handlers_.onRead)
            handlers_.onRead(incoming_);
        read();
    }
    void flush() {
        if (!started_ || writing_ || readsEnded_ || queue_.empty())
            return;
        writing_ = true;
        outgoing_ = std::move(queue_.front());
        queue_.pop_front();
        ++pending_;
        handOver(&writeTag_);
        stream_->Write(outgoing_, &writeTag_);
    }
    void onWrite(bool ok) {
        --pending_;
        writing_ = false;
        if (ok && !readsEnded_)
            flush();
        else
            maybeFinish(); // a failed write means the stream is broken; its read fails too
    }
    void endReads() {
        readsEnded_ = true;
        maybeFinish();
    }
    void maybeFinish() {
        if (!readsEnded_ || writing_ || finishing_)
            return;
        finishing_ = true;
        ++pending_;
        handOver(&finishTag_);
        stream_->Finish(&status_, &finishTag_);
    }
    void onFinish(bool) {
        --pending_;
        assert(pending_ == 0 && "a stream is deleted only once nothing of it is in flight");
        auto closed = std::move(handlers_.onClosed);
        handlers_ = {};
        if (closed)
            closed(status_);
        auto finalized = std::move(onFinalized_);
        delete this;
        finalized();
    }

    std::unique_ptr<grpc::ClientContext> context_;
    std::unique_ptr<ReaderWriter> stream_;
    Handlers handlers_;
    std::function<void()> onFinalized_;
    MemberTag<BidiStream> startTag_{this, &BidiStream::onStart};
    MemberTag<BidiStream> readTag_{this, &BidiStream::onRead};
    MemberTag<BidiStream> writeTag_{this, &BidiStream::onWrite};
    MemberTag<BidiStream> finishTag_{this, &BidiStream::onFinish};
    std::deque<Req> queue_;
    Req outgoing_;
    Resp incoming_;
    grpc::Status status_;
    int pending_ = 0;
    bool started_ = false, writing_ = false, readsEnded_ = false, finishing_ = false;
};

} // namespace etcd::detail
