//! tsl::hopscotch_map<i64, i64> with its defaults (neighborhood 62, no stored hash, power-of-two growth by 2,
//! max load factor 0.9), ported step for step so that bucket counts, the overflow list and the iteration
//! order match the C++ library exactly. The hash of a key is the key itself (libstdc++'s std::hash<long long>).

const NEIGHBORHOOD: usize = 62;
const MAX_PROBES_FOR_EMPTY_BUCKET: usize = 12 * NEIGHBORHOOD;
const MIN_LOAD_FACTOR_FOR_REHASH: f32 = 0.1;
const DEFAULT_MAX_LOAD_FACTOR: f32 = 0.9;

#[derive(Clone, Default)]
struct Bucket {
    /// Bit i set: bucket (this + i) holds a value whose home bucket is this one.
    neighbors: u64,
    overflow: bool,
    value: Option<(i64, i64)>,
}

pub struct HopscotchMap {
    /// bucket_count + NEIGHBORHOOD - 1 buckets, or none at all when the bucket count is 0.
    buckets: Vec<Bucket>,
    /// The growth policy's mask: bucket_count - 1, or 0 with no buckets.
    mask: usize,
    overflow: Vec<(i64, i64)>,
    nb_elements: usize,
    min_load_threshold: usize,
    max_load_threshold: usize,
    max_load_factor: f32,
}

fn hash(key: i64) -> usize {
    key as u64 as usize
}

impl HopscotchMap {
    pub fn new() -> Self {
        Self::with_buckets(0, DEFAULT_MAX_LOAD_FACTOR)
    }

    /// The constructor: the bucket count rounds up to a power of two (0 stays 0).
    fn with_buckets(count: usize, max_load_factor: f32) -> Self {
        let count = if count == 0 { 0 } else { count.next_power_of_two() };
        let mut map = HopscotchMap {
            buckets: if count == 0 { Vec::new() } else { vec![Bucket::default(); count + NEIGHBORHOOD - 1] },
            mask: count.saturating_sub(1),
            overflow: Vec::new(),
            nb_elements: 0,
            min_load_threshold: 0,
            max_load_threshold: 0,
            max_load_factor: 0.0,
        };
        map.set_max_load_factor(max_load_factor);
        map
    }

    pub fn len(&self) -> usize {
        self.nb_elements
    }

    pub fn bucket_count(&self) -> usize {
        if self.buckets.is_empty() {
            0
        } else {
            self.buckets.len() - NEIGHBORHOOD + 1
        }
    }

    pub fn overflow_size(&self) -> usize {
        self.overflow.len()
    }

    pub fn load_factor(&self) -> f32 {
        if self.bucket_count() == 0 {
            0.0
        } else {
            self.nb_elements as f32 / self.bucket_count() as f32
        }
    }

    pub fn max_load_factor(&self) -> f32 {
        self.max_load_factor
    }

    pub fn set_max_load_factor(&mut self, ml: f32) {
        self.max_load_factor = ml.min(0.95).max(0.1);
        self.min_load_threshold = (self.bucket_count() as f32 * MIN_LOAD_FACTOR_FOR_REHASH) as usize;
        self.max_load_threshold = (self.bucket_count() as f32 * self.max_load_factor) as usize;
    }

    fn bucket_for_hash(&self, h: usize) -> usize {
        h & self.mask
    }

    fn next_bucket_count(&self) -> usize {
        (self.mask + 1) * 2
    }

    /// The home bucket's flags; with no buckets the library reads a static empty bucket.
    fn home(&self, ibucket: usize) -> (u64, bool) {
        match self.buckets.get(ibucket) {
            Some(b) => (b.neighbors, b.overflow),
            None => (0, false),
        }
    }

    fn find_in_buckets(&self, key: i64, ibucket: usize) -> Option<usize> {
        let mut infos = self.home(ibucket).0;
        let mut i = ibucket;
        while infos != 0 {
            if infos & 1 == 1 && self.buckets[i].value.map(|v| v.0) == Some(key) {
                return Some(i);
            }
            i += 1;
            infos >>= 1;
        }
        None
    }

    pub fn get(&self, key: i64) -> Option<i64> {
        let ibucket = self.bucket_for_hash(hash(key));
        if let Some(i) = self.find_in_buckets(key, ibucket) {
            return self.buckets[i].value.map(|v| v.1);
        }
        if !self.home(ibucket).1 {
            return None;
        }
        self.overflow.iter().find(|v| v.0 == key).map(|v| v.1)
    }

    fn get_mut(&mut self, key: i64) -> Option<&mut i64> {
        let ibucket = self.bucket_for_hash(hash(key));
        if let Some(i) = self.find_in_buckets(key, ibucket) {
            return self.buckets[i].value.as_mut().map(|v| &mut v.1);
        }
        if !self.home(ibucket).1 {
            return None;
        }
        self.overflow.iter_mut().find(|v| v.0 == key).map(|v| &mut v.1)
    }

    /// insert: Err(existing value) when the key is present (nothing changes).
    pub fn insert(&mut self, key: i64, value: i64) -> Result<(), i64> {
        if let Some(v) = self.get(key) {
            return Err(v);
        }
        let h = hash(key);
        self.insert_value(self.bucket_for_hash(h), h, (key, value));
        Ok(())
    }

    /// insert_or_assign: true when inserted, false when assigned.
    pub fn insert_or_assign(&mut self, key: i64, value: i64) -> bool {
        if let Some(slot) = self.get_mut(key) {
            *slot = value;
            return false;
        }
        let h = hash(key);
        self.insert_value(self.bucket_for_hash(h), h, (key, value));
        true
    }

    fn insert_value(&mut self, mut ibucket_for_hash: usize, h: usize, value: (i64, i64)) {
        if self.nb_elements - self.overflow.len() >= self.max_load_threshold {
            self.rehash(self.next_bucket_count());
            ibucket_for_hash = self.bucket_for_hash(h);
        }
        let mut ibucket_empty = self.find_empty_bucket(ibucket_for_hash);
        if ibucket_empty < self.buckets.len() {
            loop {
                if ibucket_empty - ibucket_for_hash < NEIGHBORHOOD {
                    self.buckets[ibucket_empty].value = Some(value);
                    self.buckets[ibucket_for_hash].neighbors ^= 1 << (ibucket_empty - ibucket_for_hash);
                    self.nb_elements += 1;
                    return;
                }
                match self.swap_empty_bucket_closer(ibucket_empty) {
                    Some(closer) => ibucket_empty = closer,
                    None => break,
                }
            }
        }
        if self.nb_elements < self.min_load_threshold || !self.will_neighborhood_change_on_rehash(ibucket_for_hash) {
            self.overflow.push(value);
            self.buckets[ibucket_for_hash].overflow = true;
            self.nb_elements += 1;
            return;
        }
        self.rehash(self.next_bucket_count());
        let ibucket_for_hash = self.bucket_for_hash(h);
        self.insert_value(ibucket_for_hash, h, value);
    }

    fn will_neighborhood_change_on_rehash(&self, start: usize) -> bool {
        let expand_mask = self.next_bucket_count() - 1;
        let mut i = start;
        while i < self.buckets.len() && i - start < NEIGHBORHOOD {
            let key = self.buckets[i].value.expect("full neighborhood").0;
            if self.bucket_for_hash(hash(key)) != hash(key) & expand_mask {
                return true;
            }
            i += 1;
        }
        false
    }

    fn find_empty_bucket(&self, start: usize) -> usize {
        let limit = (start + MAX_PROBES_FOR_EMPTY_BUCKET).min(self.buckets.len());
        (start..limit).find(|&i| self.buckets[i].value.is_none()).unwrap_or(self.buckets.len())
    }

    fn swap_empty_bucket_closer(&mut self, empty: usize) -> Option<usize> {
        let start = empty - NEIGHBORHOOD + 1;
        for to_check in start..empty {
            let mut infos = self.buckets[to_check].neighbors;
            let mut to_swap = to_check;
            while infos != 0 && to_swap < empty {
                if infos & 1 == 1 {
                    self.buckets[empty].value = self.buckets[to_swap].value.take();
                    self.buckets[to_check].neighbors ^= 1 << (empty - to_check);
                    self.buckets[to_check].neighbors ^= 1 << (to_swap - to_check);
                    return Some(to_swap);
                }
                to_swap += 1;
                infos >>= 1;
            }
        }
        None
    }

    pub fn rehash(&mut self, count: usize) {
        let count = count.max((self.len() as f32 / self.max_load_factor).ceil() as usize);
        self.rehash_impl(count);
    }

    pub fn reserve(&mut self, count: usize) {
        self.rehash((count as f32 / self.max_load_factor).ceil() as usize);
    }

    /// A new table; the overflow list moves over whole (flags re-set by the new mask), then every bucket's
    /// value is inserted again in bucket order.
    fn rehash_impl(&mut self, count: usize) {
        let mut new_map = HopscotchMap::with_buckets(count, self.max_load_factor);
        if !self.overflow.is_empty() {
            new_map.overflow = std::mem::take(&mut self.overflow);
            new_map.nb_elements += new_map.overflow.len();
            for i in 0..new_map.overflow.len() {
                let home = new_map.bucket_for_hash(hash(new_map.overflow[i].0));
                new_map.buckets[home].overflow = true;
            }
        }
        for bucket in std::mem::take(&mut self.buckets) {
            if let Some(value) = bucket.value {
                let h = hash(value.0);
                new_map.insert_value(new_map.bucket_for_hash(h), h, value);
            }
        }
        *self = new_map;
    }

    pub fn erase(&mut self, key: i64) -> usize {
        let ibucket = self.bucket_for_hash(hash(key));
        if let Some(i) = self.find_in_buckets(key, ibucket) {
            self.buckets[i].value = None;
            self.buckets[ibucket].neighbors ^= 1 << (i - ibucket);
            self.nb_elements -= 1;
            return 1;
        }
        if self.home(ibucket).1 {
            if let Some(pos) = self.overflow.iter().position(|v| v.0 == key) {
                self.overflow.remove(pos);
                self.nb_elements -= 1;
                let still = self.overflow.iter().any(|v| self.bucket_for_hash(hash(v.0)) == ibucket);
                self.buckets[ibucket].overflow = still;
                return 1;
            }
        }
        0
    }

    pub fn clear(&mut self) {
        for bucket in &mut self.buckets {
            *bucket = Bucket::default();
        }
        self.overflow.clear();
        self.nb_elements = 0;
    }

    /// Iteration order: the buckets in index order, then the overflow list in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = (i64, i64)> + '_ {
        self.buckets.iter().filter_map(|b| b.value).chain(self.overflow.iter().copied())
    }
}
