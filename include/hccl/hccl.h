/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * hccl/hccl.h: HCCL's collective operations (libhccl.so). Each is enqueued on `stream` as one
 * task, in order with the stream's other work, and returns once queued: the result is in
 * place when the stream is synchronised (or an event recorded after it has completed). Every
 * rank must issue the same operations in the same order with the same count, data type,
 * reduce operation and root; buffers are device memory of the communicator's device. A
 * failure fails the stream and is kept for HcclGetCommAsyncError.
 */
#ifndef HCCL_H_
#define HCCL_H_

#include "acl/acl.h"
#include "hccl/hccl_comm.h"
#include "hccl/hccl_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* recvBuf[i] = op over every rank's sendBuf[i]; sendBuf may equal recvBuf. */
extern HcclResult HcclAllReduce(void* sendBuf, void* recvBuf, uint64_t count, HcclDataType dataType,
                                HcclReduceOp op, HcclComm comm, aclrtStream stream);

/* buf on every rank = buf on `root`. */
extern HcclResult HcclBroadcast(void* buf, uint64_t count, HcclDataType dataType, uint32_t root,
                                HcclComm comm, aclrtStream stream);

/* sendBuf holds recvCount x rankSize elements; rank r receives the reduction of block r. */
extern HcclResult HcclReduceScatter(void* sendBuf, void* recvBuf, uint64_t recvCount,
                                    HcclDataType dataType, HcclReduceOp op, HcclComm comm,
                                    aclrtStream stream);

/* Like HcclReduceScatter with a count and a displacement (in elements) per rank; sendCounts
 * and sendDispls are host arrays of rankSize uint64_t. */
extern HcclResult HcclReduceScatterV(void* sendBuf, const void* sendCounts, const void* sendDispls,
                                     void* recvBuf, uint64_t recvCount, HcclDataType dataType,
                                     HcclReduceOp op, HcclComm comm, aclrtStream stream);

/* Rank r receives block r of root's sendBuf (recvCount elements each); sendBuf may be NULL on
 * the other ranks. */
extern HcclResult HcclScatter(void* sendBuf, void* recvBuf, uint64_t recvCount,
                              HcclDataType dataType, uint32_t root, HcclComm comm,
                              aclrtStream stream);

/* recvBuf = every rank's sendBuf (sendCount elements each) in rank order. */
extern HcclResult HcclAllGather(void* sendBuf, void* recvBuf, uint64_t sendCount,
                                HcclDataType dataType, HcclComm comm, aclrtStream stream);

/* Like HcclAllGather with a count and a displacement (in elements) per rank; recvCounts and
 * recvDispls are host arrays of rankSize uint64_t. */
extern HcclResult HcclAllGatherV(void* sendBuf, uint64_t sendCount, void* recvBuf,
                                 const void* recvCounts, const void* recvDispls,
                                 HcclDataType dataType, HcclComm comm, aclrtStream stream);

/* Point to point: a send must meet the matching receive, issued in the same order. */
extern HcclResult HcclSend(void* sendBuf, uint64_t count, HcclDataType dataType, uint32_t destRank,
                           HcclComm comm, aclrtStream stream);
extern HcclResult HcclRecv(void* recvBuf, uint64_t count, HcclDataType dataType, uint32_t srcRank,
                           HcclComm comm, aclrtStream stream);

/* Sends and receives that do not wait for one another. */
extern HcclResult HcclBatchSendRecv(HcclSendRecvItem* sendRecvInfo, uint32_t itemNum, HcclComm comm,
                                    aclrtStream stream);

/* Block j of sendBuf goes to rank j (sendCount elements each); block i of recvBuf comes from
 * rank i. */
extern HcclResult HcclAlltoAll(const void* sendBuf, uint64_t sendCount, HcclDataType sendType,
                               const void* recvBuf, uint64_t recvCount, HcclDataType recvType,
                               HcclComm comm, aclrtStream stream);

/* With counts and displacements (in elements) per rank: host arrays of rankSize uint64_t. */
extern HcclResult HcclAlltoAllV(const void* sendBuf, const void* sendCounts, const void* sdispls,
                                HcclDataType sendType, const void* recvBuf, const void* recvCounts,
                                const void* rdispls, HcclDataType recvType, HcclComm comm,
                                aclrtStream stream);

/* sendCountMatrix: rankSize x rankSize uint64_t on the host, [i][j] = what rank i sends to
 * rank j (the same matrix on every rank). */
extern HcclResult HcclAlltoAllVC(const void* sendBuf, const void* sendCountMatrix,
                                 HcclDataType sendType, const void* recvBuf, HcclDataType recvType,
                                 HcclComm comm, aclrtStream stream);

/* recvBuf on `root` = op over every rank's sendBuf. */
extern HcclResult HcclReduce(void* sendBuf, void* recvBuf, uint64_t count, HcclDataType dataType,
                             HcclReduceOp op, uint32_t root, HcclComm comm, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HCCL_H_ */
