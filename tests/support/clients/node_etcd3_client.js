// Holds a lock or an election candidacy of npm's etcd3 (1.1.2) for a test, as a Node.js service
// would. Usage: node node_etcd3_client.js ENDPOINT NAMESPACE lock NAME TTL
//               node node_etcd3_client.js ENDPOINT NAMESPACE campaign NAME VALUE TTL
// Prints "held <lease id>" once the lock is held (lock() only tries: it is tried again every
// 100 ms), "campaigning <lease id>" once the candidate's key is in and "elected" when it leads;
// lets go (release or resign) when a line "release" or the end of input arrives, then prints
// "released".
'use strict';
const readline = require('readline');
const { Etcd3 } = require('etcd3');

const [endpoint, namespace, mode, name, ...rest] = process.argv.slice(2);
const client = new Etcd3({ hosts: endpoint });
const scope = client.namespace(namespace);

function untilRelease() {
  return new Promise(resolve => {
    const input = readline.createInterface({ input: process.stdin });
    input.on('line', line => line.trim() === 'release' && resolve());
    input.on('close', resolve);
  });
}

async function holdLock(ttl) {
  for (;;) {
    const lock = scope.lock(name).ttl(Number(ttl));
    try {
      await lock.acquire();
      console.log('held', await lock.leaseId());
      await untilRelease();
      await lock.release();
      return;
    } catch (e) {
      if (e.name !== 'EtcdLockFailedError') throw e;
      await new Promise(resolve => setTimeout(resolve, 100));
    }
  }
}

async function campaign(value, ttl) {
  const election = scope.election(name, Number(ttl));
  const candidacy = election.campaign(value);
  // "elected" may come before the key is known: it is printed after "campaigning" all the same.
  let announced = false;
  let electedEarly = false;
  candidacy.on('elected', () => (announced ? console.log('elected') : (electedEarly = true)));
  candidacy.on('error', e => { console.error(e); process.exit(1); });
  console.log('campaigning', await candidacy.getCampaignKey());
  announced = true;
  if (electedEarly) console.log('elected');
  await untilRelease();
  await candidacy.resign();
}

(mode === 'lock' ? holdLock(rest[0]) : campaign(rest[0], rest[1]))
  .then(() => { console.log('released'); client.close(); })
  .catch(e => { console.error(e); process.exit(1); });
