# A block device in RAM for os.VfsFat / os.VfsLfs2 under the MicroPython unix
# port (the Pico's own filesystems), with snapshots for power-cut tests.


class RAMBlockDev:
    """Block device in RAM, for VfsFat and VfsLfs2 (the Pico's filesystems)."""

    def __init__(self, block_size, num_blocks):
        # One bytearray per block: no single big allocation on a small heap.
        self.block_size = block_size
        self.blocks = [bytearray(block_size) for _ in range(num_blocks)]

    def _span(self, n, off, size):
        while size:
            k = min(self.block_size - off, size)
            yield self.blocks[n], off, k
            size -= k
            n += 1
            off = 0

    def readblocks(self, n, buf, off=0):
        mv = memoryview(buf)
        i = 0
        for blk, o, k in self._span(n, off, len(buf)):
            mv[i : i + k] = memoryview(blk)[o : o + k]
            i += k

    def writeblocks(self, n, buf, off=None):
        mv = memoryview(buf)
        i = 0
        for blk, o, k in self._span(n, off or 0, len(buf)):
            memoryview(blk)[o : o + k] = mv[i : i + k]
            i += k

    def ioctl(self, op, arg):
        if op == 4:
            return len(self.blocks)
        if op == 5:
            return self.block_size
        if op == 6:
            return 0
        return None

    def image(self):
        """A copy of every block (the flash contents right now)."""
        return [bytearray(b) for b in self.blocks]

    def restore(self, image):
        for i in range(len(self.blocks)):
            self.blocks[i][:] = image[i]


class CutDisk(RAMBlockDev):
    """Counts block writes; at write number ``snap_at`` (0-based) it records the
    image a power cut at that moment would leave: without that write, or with
    only its first half when ``half`` is set. The run itself goes on."""

    def __init__(self, block_size, num_blocks):
        super().__init__(block_size, num_blocks)
        self.writes = 0
        self.snap_at = -1
        self.half = False
        self.snap = None

    def writeblocks(self, n, buf, off=None):
        if self.writes == self.snap_at:
            if self.half:
                super().writeblocks(n, memoryview(buf)[: len(buf) // 2], off)
                self.snap = self.image()
                super().writeblocks(n, buf, off)
                self.writes += 1
                return
            self.snap = self.image()
        self.writes += 1
        super().writeblocks(n, buf, off)

    def ioctl(self, op, arg):
        if op == 6:  # erase a block: on flash that leaves 0xFF, and is a cut point too
            if self.writes == self.snap_at:
                self.snap = self.image()
            self.writes += 1
            blk = self.blocks[arg]
            for i in range(len(blk)):
                blk[i] = 0xFF
            return 0
        return super().ioctl(op, arg)
