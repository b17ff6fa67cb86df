import java.util.List;

public class Invoice {
    private final List<Integer> lines;

    public Invoice(List<Integer> lines) {
        this.lines = lines;
    }

    public int total() {
        int sum = 0;
        for (int l : lines) sum += l;
        return sum
    }

    public String label() {
        String s = total();
        return s + undefinedSuffix;
    }
}
